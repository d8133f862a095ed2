// Fider's export as a bundle: what its REST API lists, saved as JSON in one folder (docs/cli.md#import):
//   posts.json     GET /api/v1/posts (an array)
//   tags.json      GET /api/v1/tags
//   votes.json     each post's GET /api/v1/posts/{number}/votes, by post number: { "1": [...], "2": [...] }
//   comments.json  each post's GET /api/v1/posts/{number}/comments, by post number
// Fider has no boards: its posts go to one board (`--board`, "Feedback" by default).
import type { ImportBundle } from '../../engine/index.js';
import type { PostStatus } from '../../schemas/posts.js';
import { byTime, type Files, shaped, str } from './files.js';

interface FiderUser {
  id: number | string;
  name?: string;
  email?: string;
}

/** Fider's post statuses in ours (a deleted post is left out). */
const STATUSES: Record<string, PostStatus> = {
  open: 'open',
  planned: 'planned',
  started: 'in_progress',
  completed: 'shipped',
  declined: 'declined',
  duplicate: 'duplicate',
};

export async function readFider(files: Files, boardName: string): Promise<ImportBundle> {
  type Item = Record<string, unknown>;
  const posts = shaped<Item[]>('posts.json', await files.json('posts.json', []), 'array', "Fider's GET /api/v1/posts");
  const tags = shaped<Item[]>('tags.json', await files.json('tags.json', []), 'array', "Fider's GET /api/v1/tags");
  const byNumber = async (name: string, what: string) => {
    const read = shaped<Record<string, unknown>>(name, await files.json(name, {}), 'object', what);
    for (const [number, list] of Object.entries(read))
      shaped(name, list, 'array', `${what}, by post number (post ${number} is not a list)`);
    return read as Record<string, Item[]>;
  };
  const votes = await byNumber('votes.json', "each post's votes (GET /api/v1/posts/{number}/votes)");
  const comments = await byNumber('comments.json', "each post's comments (GET /api/v1/posts/{number}/comments)");
  const people = new Map<string, ImportBundle['people'][number]>();
  const person = (user: unknown): string | null => {
    const u = user as FiderUser | undefined;
    if (!u || u.id === undefined) return null;
    const id = String(u.id);
    const known = people.get(id);
    people.set(id, {
      id,
      email: known?.email ?? (u.email ? u.email.trim().toLowerCase() : null),
      name: known?.name ?? u.name ?? null,
    });
    return id;
  };
  const bySlug = new Map(tags.map((t) => [str(t.slug), str(t.id)]));
  const live = posts.filter((p) => STATUSES[str(p.status)] !== undefined);
  const numbered = new Map(live.map((p) => [str(p.number), str(p.id)]));
  const bundle: ImportBundle = {
    source: 'fider',
    companies: [],
    people: [],
    boards: [{ id: 'fider', name: boardName, isPublic: true }],
    tags: tags.map((t) => ({ id: str(t.id), name: str(t.name) })),
    posts: live.map((p) => ({
      id: str(p.id),
      boardId: 'fider',
      title: str(p.title),
      bodyText: str(p.description),
      status: STATUSES[str(p.status)]!,
      authorId: person(p.user),
      authorName: null,
      createdAt: str(p.createdAt),
      tagIds: ((p.tags as string[] | undefined) ?? []).flatMap((slug) => bySlug.get(slug) ?? []),
    })),
    votes: Object.entries(votes).flatMap(([number, list]) =>
      numbered.has(number)
        ? list.map((v) => {
            const who = person(v.user);
            return {
              id: `${number}:${who ?? str(v.createdAt)}`,
              postId: numbered.get(number)!,
              personId: who,
              createdAt: str(v.createdAt),
            };
          })
        : [],
    ),
    comments: [],
    changelog: [],
  };
  bundle.comments = fiderComments(live, comments, numbered, person);
  bundle.people = [...people.values()];
  return bundle;
}

/** The team's response to each post (its status explained) as an official comment, then the comments: oldest first. */
function fiderComments(
  live: Array<Record<string, unknown>>,
  comments: Record<string, Array<Record<string, unknown>>>,
  numbered: Map<string, string>,
  person: (user: unknown) => string | null,
): ImportBundle['comments'] {
  const out: ImportBundle['comments'] = [];
  // The team's response to a post (its status explained) is an official comment; then the comments, oldest first.
  for (const p of live) {
    const response = p.response as { text?: string; respondedAt?: string; user?: FiderUser } | null | undefined;
    if (response?.text)
      out.push({
        id: `response:${str(p.id)}`,
        postId: str(p.id),
        parentId: null,
        personId: null,
        authorName: response.user?.name ?? null,
        official: true,
        bodyText: response.text,
        createdAt: response.respondedAt ?? str(p.createdAt),
      });
  }
  for (const [number, list] of Object.entries(comments)) {
    if (!numbered.has(number)) continue;
    for (const c of list)
      out.push({
        id: str(c.id),
        postId: numbered.get(number)!,
        parentId: null,
        personId: person(c.user),
        authorName: null,
        official: false,
        bodyText: str(c.content),
        createdAt: str(c.createdAt),
      });
  }
  return out.sort(byTime);
}
