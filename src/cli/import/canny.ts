// Canny's export as a bundle: its REST API's list responses saved as JSON in one folder (docs/cli.md#import), each
// file one response or an array of responses (its pages): boards.json ({ boards }), posts.json ({ posts }),
// votes.json ({ votes }), comments.json ({ comments }), tags.json ({ tags }), users.json ({ users }) and
// changelog.json ({ entries }). Internal comments are the team's notes in Canny: they are left out.
import type { ImportBundle } from '../../engine/index.js';
import type { PostStatus } from '../../schemas/posts.js';
import { byTime, type Files, shaped, str } from './files.js';

type Item = Record<string, unknown>;

/** Canny's post statuses in ours. */
const STATUSES: Record<string, PostStatus> = {
  open: 'open',
  'under review': 'under_review',
  planned: 'planned',
  'in progress': 'in_progress',
  complete: 'shipped',
  closed: 'declined',
};

/** The items of a list file: one response (`{ posts: [...] }`) or its pages (`[{ posts }, { posts }]`). */
async function items(files: Files, name: string, key: string): Promise<Item[]> {
  const read = await files.json(name, []);
  const pages = Array.isArray(read) ? read : [read];
  return pages.flatMap((page) => {
    const what = `Canny's list response ({ ${key}: [...] }, or an array of its pages)`;
    const list = shaped<Item>(name, page, 'object', what)[key] ?? [];
    return shaped<Item[]>(name, list, 'array', what);
  });
}

const idOf = (v: unknown) => str((v as Item | null | undefined)?.id);

export async function readCanny(files: Files): Promise<ImportBundle> {
  const [boards, posts, votes, comments, tags, users, entries] = await Promise.all([
    items(files, 'boards.json', 'boards'),
    items(files, 'posts.json', 'posts'),
    items(files, 'votes.json', 'votes'),
    items(files, 'comments.json', 'comments'),
    items(files, 'tags.json', 'tags'),
    items(files, 'users.json', 'users'),
    items(files, 'changelog.json', 'entries'),
  ]);
  const people = new Map<string, ImportBundle['people'][number]>();
  const person = (user: unknown): string | null => {
    const u = user as Item | null | undefined;
    if (!u?.id) return null;
    const id = str(u.id);
    const known = people.get(id);
    people.set(id, {
      id,
      email: known?.email ?? (u.email ? str(u.email).trim().toLowerCase() : null),
      name: known?.name ?? (u.name ? str(u.name) : null),
      ...((known?.createdAt ?? u.created) ? { createdAt: known?.createdAt ?? str(u.created) } : {}),
    });
    return id;
  };
  for (const u of users) person(u);
  const boardOf = new Map(posts.map((p) => [str(p.id), idOf(p.board)]));
  const firstBoard = str(boards[0]?.id);
  return {
    source: 'canny',
    boards: boards.map((b) => ({
      id: str(b.id),
      name: str(b.name),
      isPublic: b.isPrivate !== true,
      ...(b.created ? { createdAt: str(b.created) } : {}),
    })),
    tags: tags.map((t) => ({ id: str(t.id), name: str(t.name) })),
    posts: posts.map((p) => ({
      id: str(p.id),
      boardId: idOf(p.board),
      title: str(p.title),
      bodyText: str(p.details),
      status: STATUSES[str(p.status)] ?? 'open',
      authorId: person(p.author),
      authorName: null,
      createdAt: str(p.created),
      tagIds: ((p.tags as Item[] | undefined) ?? []).map(idOf),
    })),
    votes: votes.map((v) => ({
      id: str(v.id),
      postId: idOf(v.post),
      personId: person(v.voter),
      createdAt: str(v.created),
    })),
    comments: cannyComments(comments, person),
    changelog: cannyChangelog(entries, boardOf, firstBoard),
    people: [...people.values()],
  };
}

/** Canny's comments that end-users see (internal ones are the team's notes there), oldest first; an admin's is the team's. */
function cannyComments(comments: Item[], person: (user: unknown) => string | null): ImportBundle['comments'] {
  return comments
    .filter((c) => c.internal !== true)
    .map((c) => {
      const author = c.author as Item | undefined;
      return {
        id: str(c.id),
        postId: idOf(c.post),
        parentId: c.parentID ? str(c.parentID) : null,
        personId: author?.isAdmin === true ? null : person(author),
        authorName: author?.isAdmin === true ? str(author.name) || null : null,
        official: author?.isAdmin === true,
        bodyText: str(c.value),
        createdAt: str(c.created),
      };
    })
    .sort(byTime);
}

/** Canny's changelog entries; an entry is the workspace's there, here it goes on the board of the first post it ships. */
function cannyChangelog(entries: Item[], boardOf: Map<string, string>, firstBoard: string): ImportBundle['changelog'] {
  return entries.map((e) => {
    const shipped = ((e.posts as Item[] | undefined) ?? []).map(idOf);
    return {
      id: str(e.id),
      // An entry is the workspace's in Canny: here it goes on the board of the first post it ships.
      boardId: boardOf.get(shipped[0] ?? '') ?? firstBoard,
      title: str(e.title),
      body: str(e.markdownDetails ?? e.plaintextDetails),
      publishedAt: str(e.status) === 'published' && e.publishedAt ? str(e.publishedAt) : null,
      createdAt: str(e.created ?? e.publishedAt),
      postIds: shipped,
    };
  });
}
