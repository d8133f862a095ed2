import { print, withEngine, type DatabaseOptions } from '../common.js';

export interface CreateOptions extends DatabaseOptions {
  org: string;
  board: string;
  title: string;
  bodyText?: string;
  contact?: string;
}

export async function create(options: CreateOptions): Promise<void> {
  const text = options.bodyText;
  const post = await withEngine(options.db, (e) =>
    e.workspace(options.org).posts.create(options.board, {
      title: options.title,
      ...(text !== undefined ? { body: { json: { type: 'text', text }, text } } : {}),
      ...(options.contact ? { contactId: options.contact } : {}),
    }),
  );
  print(options.json, { ...post }, `Created post ${post.id} (/${post.slug}) on board ${post.boardId}.`);
}

export interface MergeOptions extends DatabaseOptions {
  into: string;
  org: string;
}

export async function merge(postId: string, options: MergeOptions): Promise<void> {
  const post = await withEngine(options.db, (e) => e.workspace(options.org).posts.merge(postId, options.into));
  print(options.json, { ...post }, `Merged post ${post.id} into ${post.mergedIntoId}.`);
}
