// Canny's posts CSV export (posts.csv), read when the folder has no posts.json: for a team that exported from Canny's
// pages rather than its API. Its columns are found by their header, in any order and case (docs/cli.md#import).
// A row has no voters (a count at most) and no comments: it brings boards, tags, posts and their authors. Boards,
// tags and authors that boards.json, tags.json or users.json have are those; others are recorded by name and address.
import { createHash } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import type { ImportBundle } from '../../engine/index.js';
import { CommandError } from '../args.js';
import type { Files } from './files.js';

/** The columns read, each by the headers it may have (compared without case, spaces or punctuation). */
const COLUMNS = {
  id: ['id', 'postid'],
  url: ['url', 'posturl', 'link'],
  title: ['title', 'posttitle'],
  details: ['details', 'description', 'postdetails', 'body'],
  board: ['board', 'boardname'],
  status: ['status'],
  tags: ['tags'],
  authorName: ['authorname', 'author', 'createdby'],
  authorEmail: ['authoremail', 'email'],
  created: ['created', 'createdat', 'date', 'postcreated'],
} as const;
type Column = keyof typeof COLUMNS;

const key = (header: string) => header.toLowerCase().replace(/[^a-z0-9]/g, '');

type Post = ImportBundle['posts'][number];
/** What the folder's JSON has already (a CSV's board, tag or author with that name or address is that one). */
type Known = Pick<ImportBundle, 'boards' | 'tags'> & {
  people: Map<string, ImportBundle['people'][number]>;
  /** Canny's status (lower case) in ours. */
  status: (canny: string) => Post['status'];
};

export async function postsFromCsv(
  files: Files,
  known: Known,
): Promise<Pick<ImportBundle, 'posts' | 'boards' | 'tags'>> {
  const text = await files.text('posts.csv');
  if (text === null) return { posts: [], boards: known.boards, tags: known.tags };
  let rows: string[][];
  try {
    rows = parse(text, { bom: true, skip_empty_lines: true, relax_quotes: false });
  } catch (err) {
    throw new CommandError('ERR_IMPORT_FILE', `posts.csv is not CSV: ${(err as Error).message}`);
  }
  const header = (rows[0] ?? []).map(key);
  const at = Object.fromEntries(
    Object.entries(COLUMNS).map(([name, names]) => [
      name,
      header.findIndex((h) => (names as readonly string[]).includes(h)),
    ]),
  ) as Record<Column, number>;
  for (const needed of ['title', 'board'] as const)
    if (at[needed] < 0)
      throw new CommandError(
        'ERR_IMPORT_FILE',
        `posts.csv has no ${needed} column (its first line must name the columns: Title, Board, Details, Status, Tags, Author Name, Author Email, Created)`,
      );
  const boards = [...known.boards];
  const tags = [...known.tags];
  const named = <T extends { id: string; name: string }>(list: T[], name: string, make: () => T) => {
    const found = list.find((x) => x.name.toLowerCase() === name.toLowerCase());
    if (found) return found.id;
    const made = make();
    list.push(made);
    return made.id;
  };
  const posts = rows.slice(1).map((row, i): Post => {
    const cell = (c: Column) => (at[c] < 0 ? '' : (row[at[c]] ?? '').trim());
    const title = cell('title');
    const boardName = cell('board');
    if (!title || !boardName)
      throw new CommandError('ERR_IMPORT_FILE', `posts.csv line ${i + 2}: a post needs its title and its board`);
    const created = cell('created');
    const createdAt = created && !Number.isNaN(Date.parse(created)) ? new Date(created).toISOString() : null;
    if (created && !createdAt)
      throw new CommandError('ERR_IMPORT_FILE', `posts.csv line ${i + 2}: "${created}" is not a date`);
    return {
      id: postId(cell('id'), cell('url'), boardName, title, created),
      boardId: named(boards, boardName, () => ({ id: `csv-board:${boardName}`, name: boardName, isPublic: true })),
      title,
      bodyText: cell('details'),
      status: known.status(cell('status').toLowerCase()),
      authorId: author(known.people, cell('authorEmail'), cell('authorName')),
      authorName: cell('authorEmail') ? null : cell('authorName') || null,
      createdAt: createdAt ?? new Date().toISOString(),
      tagIds: cell('tags')
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean)
        .map((name) => named(tags, name, () => ({ id: `csv-tag:${name.toLowerCase()}`, name }))),
    };
  });
  return { posts, boards, tags };
}

/** A row's id in Canny: its id column, else its address, else what the row says (board, title, date). */
function postId(id: string, url: string, board: string, title: string, created: string): string {
  if (id) return id;
  if (url) return `csv-url:${url}`;
  return `csv-row:${createHash('sha256')
    .update(JSON.stringify([board, title, created]))
    .digest('hex')
    .slice(0, 32)}`;
}

/** A row's author: the person with that address (users.json's, or a new one), or null (a name at most). */
function author(people: Known['people'], email: string, name: string): string | null {
  const address = email.toLowerCase();
  if (!address) return null;
  for (const p of people.values()) if (p.email === address) return p.id;
  const id = `csv-person:${address}`;
  people.set(id, { id, email: address, name: name || null });
  return id;
}
