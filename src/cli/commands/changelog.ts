import { print, withEngine, type DatabaseOptions } from '../common.js';

export interface CreateOptions extends DatabaseOptions {
  org: string;
  board: string;
  title: string;
  body?: string;
}
export interface PublishOptions extends DatabaseOptions {
  org: string;
}

export async function create(options: CreateOptions): Promise<void> {
  const entry = await withEngine(options.db, (e) =>
    e.workspace(options.org).changelog.create({ boardId: options.board, title: options.title, ...(options.body ? { body: options.body } : {}) }),
  );
  print(options.json, { ...entry }, `Created draft changelog entry ${entry.id} (/${entry.slug}).`);
}

export async function publish(entryId: string, options: PublishOptions): Promise<void> {
  const entry = await withEngine(options.db, (e) => e.workspace(options.org).changelog.publish(entryId));
  print(options.json, { ...entry }, `Published changelog entry ${entry.id} at ${entry.publishedAt}.`);
}
