import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * A file the package ships beside its code (a browser script, the API reference's bundle): in `dist/assets/` once
 * built (the build copies it there; `from` is the caller's `import.meta.url`, in `dist/` or a folder of it), else
 * where the sources keep it (`source`). Null when neither has it.
 */
export function packagedFile(name: string, from: string, source: URL): string | null {
  for (const url of [new URL(`./assets/${name}`, from), new URL(`../assets/${name}`, from), source]) {
    const path = fileURLToPath(url);
    if (existsSync(path)) return path;
  }
  return null;
}

/** A packaged text file's content (`packagedFile`); a package without it is broken, and says which file is missing. */
export function readPackagedFile(name: string, from: string, source: URL): string {
  const path = packagedFile(name, from, source);
  if (!path)
    throw new Error(`feedback-service: the packaged file ${name} is missing (dist/assets/ or ${source.pathname})`);
  return readFileSync(path, 'utf8');
}
