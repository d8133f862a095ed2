import { type DatabaseOptions, withEngine } from '../common.js';
import { type Io, print } from '../io.js';

export interface CreateOptions extends DatabaseOptions {
  org: string;
  board: string;
  title: string;
  body?: string;
}
export interface PublishOptions extends DatabaseOptions {
  org: string;
}

export async function create(options: CreateOptions, io: Io): Promise<void> {
  const entry = await withEngine(options.db, (e) =>
    e.workspace(options.org).changelog.create({
      boardId: options.board,
      title: options.title,
      ...(options.body ? { body: options.body } : {}),
    }),
  );
  print(io, options.json, { ...entry }, `Created draft changelog entry ${entry.id} (/${entry.slug}).`);
}

export async function publish(entryId: string, options: PublishOptions, io: Io): Promise<void> {
  const entry = await withEngine(options.db, (e) => e.workspace(options.org).changelog.publish(entryId));
  print(io, options.json, { ...entry }, `Published changelog entry ${entry.id} at ${entry.publishedAt}.`);
}
