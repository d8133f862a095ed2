import { type DatabaseOptions, withEngine } from '../common.js';
import { type Io, print } from '../io.js';

export interface CreateOptions extends DatabaseOptions {
  org: string;
  name: string;
  description?: string;
  private?: boolean;
}
export interface ListOptions extends DatabaseOptions {
  org: string;
}

export async function create(options: CreateOptions, io: Io): Promise<void> {
  const board = await withEngine(options.db, (e) =>
    e
      .workspace(options.org)
      .boards.create({ name: options.name, description: options.description ?? null, isPublic: !options.private }),
  );
  print(io, options.json, { ...board }, `Created board ${board.id} (${board.name}, /${board.slug}).`);
}

/** `board list`: every board of the workspace, all pages. */
export async function list(options: ListOptions, io: Io): Promise<void> {
  const boards = await withEngine(options.db, async (e) => {
    const all = [];
    let cursor: string | undefined;
    do {
      const page = await e.workspace(options.org).boards.list({ limit: 100, ...(cursor ? { cursor } : {}) });
      all.push(...page.data);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    return all;
  });
  print(
    io,
    options.json,
    { data: boards },
    boards.map((b) => `${b.id}  ${b.slug}  ${b.name}${b.isPublic ? '' : ' (private)'}`).join('\n') || 'No boards.',
  );
}
