// Canny's export as a bundle: its REST API's list responses saved as JSON in one folder (docs/cli.md#import), each
// file one response or an array of responses (its pages): boards.json ({ boards }), posts.json ({ posts }),
// votes.json ({ votes }), comments.json ({ comments }), tags.json ({ tags }), users.json ({ users }), companies.json
// ({ companies }) and changelog.json ({ entries }). Without posts.json, Canny's posts CSV export (posts.csv) is read
// instead (canny-csv.ts). Internal comments are the team's notes in Canny: they are left out.
import type { ImportBundle } from '../../engine/index.js';
import { upsertCompanyBodySchema } from '../../schemas/companies.js';
import type { PostStatus } from '../../schemas/posts.js';
import { CommandError } from '../args.js';
import { postsFromCsv } from './canny-csv.js';
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

const statusOf = (canny: string): PostStatus => STATUSES[canny] ?? 'open';

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

/** How an import reads Canny: the currency of its companies' `monthlySpend` (Canny names none). */
export interface CannyOptions {
  currency: string;
}

export async function readCanny(files: Files, options: CannyOptions): Promise<ImportBundle> {
  const [boards, votes, comments, tags, users, listed, entries] = await Promise.all([
    items(files, 'boards.json', 'boards'),
    items(files, 'votes.json', 'votes'),
    items(files, 'comments.json', 'comments'),
    items(files, 'tags.json', 'tags'),
    items(files, 'users.json', 'users'),
    items(files, 'companies.json', 'companies'),
    items(files, 'changelog.json', 'entries'),
  ]);
  const companies = cannyCompanies(listed, users, options.currency);
  const people = new Map<string, ImportBundle['people'][number]>();
  const person = (user: unknown): string | null => {
    const u = user as Item | null | undefined;
    if (!u?.id) return null;
    const id = str(u.id);
    const known = people.get(id);
    const memberOf = ((u.companies as Item[] | undefined) ?? []).map(idOf).filter((c) => companies.has(c));
    people.set(id, {
      id,
      email: known?.email ?? (u.email ? str(u.email).trim().toLowerCase() : null),
      name: known?.name ?? (u.name ? str(u.name) : null),
      ...((known?.createdAt ?? u.created) ? { createdAt: known?.createdAt ?? str(u.created) } : {}),
      ...((known?.companyIds?.length ?? 0) > 0 || memberOf.length > 0
        ? { companyIds: known?.companyIds?.length ? known.companyIds : memberOf }
        : {}),
    });
    return id;
  };
  for (const u of users) person(u);
  const board = (b: Item) => ({
    id: str(b.id),
    name: str(b.name),
    isPublic: b.isPrivate !== true,
    ...(b.created ? { createdAt: str(b.created) } : {}),
  });
  const fromApi = await postsJson(files);
  const read = fromApi
    ? { posts: fromApi.map((p) => cannyPost(p, person)), boards: boards.map(board), tags: tags.map(tagOf) }
    : await postsFromCsv(files, { boards: boards.map(board), tags: tags.map(tagOf), people, status: statusOf });
  const boardOf = new Map(read.posts.map((p) => [p.id, p.boardId]));
  const firstBoard = read.boards[0]?.id ?? '';
  return {
    source: 'canny',
    companies: [...companies.values()],
    boards: read.boards,
    tags: read.tags,
    posts: read.posts,
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

const tagOf = (t: Item) => ({ id: str(t.id), name: str(t.name) });

/** posts.json's posts, or null when the folder has none (its posts CSV export is read instead). */
async function postsJson(files: Files): Promise<Item[] | null> {
  if ((await files.json('posts.json', null)) === null) return null;
  return items(files, 'posts.json', 'posts');
}

function cannyPost(p: Item, person: (user: unknown) => string | null): ImportBundle['posts'][number] {
  return {
    id: str(p.id),
    boardId: idOf(p.board),
    title: str(p.title),
    bodyText: str(p.details),
    status: statusOf(str(p.status)),
    authorId: person(p.author),
    authorName: null,
    createdAt: str(p.created),
    tagIds: ((p.tags as Item[] | undefined) ?? []).map(idOf),
  };
}

/**
 * Canny's companies (companies.json, and those its users name), by their id: the one the team's product gave them, so
 * their externalCompanyId here. `monthlySpend` is in the currency's units; custom fields become metadata where they
 * fit its rules, and are left out where they do not.
 */
function cannyCompanies(
  listed: Item[],
  users: Item[],
  currency: string,
): Map<string, ImportBundle['companies'][number]> {
  const out = new Map<string, ImportBundle['companies'][number]>();
  const named = users.flatMap((u) => (u.companies as Item[] | undefined) ?? []);
  for (const c of [...listed, ...named]) {
    const id = str(c.id);
    if (out.has(id)) continue;
    const spend = typeof c.monthlySpend === 'number' ? Math.round(c.monthlySpend * 100) : null;
    const { domain, ...fields } = {
      externalCompanyId: id,
      name: c.name ? str(c.name).slice(0, 200) : null,
      domain: c.domain ? str(c.domain).toLowerCase() : null,
      ...(spend === null ? {} : { mrrCents: spend, currency }),
    };
    const metadata = c.customFields && typeof c.customFields === 'object' ? c.customFields : {};
    // All of it, else without the custom fields, else without the domain too: what our rules cannot hold stays out.
    const tries = [{ ...fields, domain, metadata }, { ...fields, domain }, fields];
    const parsed = tries.map((t) => upsertCompanyBodySchema.safeParse(t)).find((r) => r.success)?.data;
    if (!parsed)
      throw new CommandError(
        'ERR_IMPORT_FILE',
        `companies.json: company ${id} cannot be brought in: ${upsertCompanyBodySchema.safeParse(fields).error?.issues[0]?.message}`,
      );
    const { externalCompanyId: _id, ...rest } = parsed;
    out.set(id, { id, ...rest });
  }
  return out;
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
