import { type DatabaseOptions, withEngine } from '../common.js';
import { type Io, print } from '../io.js';

export interface CreateOptions extends DatabaseOptions {
  org: string;
  board: string;
  title: string;
  bodyText?: string;
  contact?: string;
}

export async function create(options: CreateOptions, io: Io): Promise<void> {
  const text = options.bodyText;
  const post = await withEngine(options.db, (e) =>
    e.workspace(options.org).posts.create(options.board, {
      title: options.title,
      ...(text !== undefined ? { body: { json: { type: 'text', text }, text } } : {}),
      ...(options.contact ? { contactId: options.contact } : {}),
    }),
  );
  print(io, options.json, { ...post }, `Created post ${post.id} (/${post.slug}) on board ${post.boardId}.`);
}

export interface MergeOptions extends DatabaseOptions {
  into: string;
  org: string;
}

export async function merge(postId: string, options: MergeOptions, io: Io): Promise<void> {
  const post = await withEngine(options.db, (e) => e.workspace(options.org).posts.merge(postId, options.into));
  print(io, options.json, { ...post }, `Merged post ${post.id} into ${post.mergedIntoId}.`);
}

export interface PendingOptions extends DatabaseOptions {
  org: string;
}

export async function pending(options: PendingOptions, io: Io): Promise<void> {
  const posts = await withEngine(options.db, (e) => e.workspace(options.org).posts.pending());
  const lines = posts.map((p) => `${p.id}  ${p.createdAt}  ${p.title}`);
  print(io, options.json, { data: posts }, posts.length ? lines.join('\n') : 'No posts are waiting for moderation.');
}

export interface ModerateOptions extends DatabaseOptions {
  org: string;
}

export async function moderate(
  postId: string,
  decision: 'approved' | 'spam',
  options: ModerateOptions,
  io: Io,
): Promise<void> {
  const post = await withEngine(options.db, (e) => e.workspace(options.org).posts.moderate(postId, decision));
  print(
    io,
    options.json,
    { ...post },
    decision === 'approved' ? `Approved post ${post.id}: it is on the portal.` : `Marked post ${post.id} as spam.`,
  );
}
