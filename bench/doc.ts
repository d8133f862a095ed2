import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const FILE = join(import.meta.dirname, '../docs/benchmarks.md');

/** Put `section` (which starts with its `## ` heading) into docs/benchmarks.md, replacing an older one of the same heading. */
export function writeSection(section: string): void {
  const heading = section.slice(0, section.indexOf('\n'));
  const doc = readFileSync(FILE, 'utf8');
  const start = doc.indexOf(`${heading}\n`);
  if (start === -1) {
    writeFileSync(FILE, `${doc.trimEnd()}\n\n${section}`);
    return;
  }
  const next = doc.indexOf('\n## ', start + heading.length);
  const rest = next === -1 ? '' : `\n${doc.slice(next + 1)}`;
  writeFileSync(FILE, `${doc.slice(0, start).trimEnd()}\n\n${section.trimEnd()}\n${rest}`);
}

/** Replace what comes before the first section of docs/benchmarks.md (its title and how it was made). */
export function writeHeader(header: string): void {
  const doc = readFileSync(FILE, 'utf8');
  const first = doc.indexOf('\n## ');
  writeFileSync(FILE, `${header.trimEnd()}\n${first === -1 ? '' : doc.slice(first)}`);
}

/**
 * What a section's figures say, from a file beside the generators (bench/<file>): written by hand after a run, put
 * under the section's table by every run, so that a new run keeps it.
 */
export function notes(file: string): string {
  return readFileSync(join(import.meta.dirname, file), 'utf8').trim();
}
