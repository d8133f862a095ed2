import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CommandError } from '../args.js';

/** An export's folder: its JSON files by name, or what stands for a file it does not have. */
export interface Files {
  json(name: string, missing: unknown): Promise<unknown>;
  text(name: string): Promise<string | null>;
}

export function folder(dir: string): Files {
  const read = async (name: string) => {
    try {
      return await readFile(join(dir, name), 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  };
  return {
    async json(name, missing) {
      const text = await read(name);
      if (text === null) return missing;
      try {
        return JSON.parse(text);
      } catch (err) {
        throw new CommandError('ERR_IMPORT_FILE', `${name} is not JSON: ${(err as Error).message}`);
      }
    },
    text: read,
  };
}

/** A value of an export as text (ids may be numbers there). */
export const str = (v: unknown): string => (v === undefined || v === null ? '' : String(v));

/** Oldest first (replies after what they answer). */
export const byTime = (a: { createdAt: string }, b: { createdAt: string }) =>
  Date.parse(a.createdAt) - Date.parse(b.createdAt);

/** An export file's content as the shape it must have, or a clear error naming the file and what it should hold. */
export function shaped<T>(name: string, value: unknown, kind: 'array' | 'object', what: string): T {
  const ok =
    kind === 'array' ? Array.isArray(value) : value !== null && typeof value === 'object' && !Array.isArray(value);
  if (!ok)
    throw new CommandError(
      'ERR_IMPORT_FILE',
      `${name} is not ${what} (expected ${kind === 'array' ? 'a JSON array' : 'a JSON object'})`,
    );
  return value as T;
}
