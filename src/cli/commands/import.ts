import { IMPORT_KINDS, type ImportSummary } from '../../engine/index.js';
import { UsageError } from '../args.js';
import { type DatabaseOptions, withEngine } from '../common.js';
import { readCanny } from '../import/canny.js';
import { readFider } from '../import/fider.js';
import { folder } from '../import/files.js';
import { type Io, print } from '../io.js';

export interface ImportOptions extends DatabaseOptions {
  org: string;
  dryRun?: boolean;
  /** Fider: the board its posts go to. */
  board?: string;
  /** Canny: the currency of its companies' monthly spend. */
  currency?: string;
}

const PLURAL: Record<string, string> = {
  company: 'companies',
  person: 'people',
  board: 'boards',
  tag: 'tags',
  post: 'posts',
  vote: 'votes',
  comment: 'comments',
  changelog: 'changelog entries',
};

/** `import canny|fider DIR`: an export brought into a workspace, its progress on stderr, a summary at the end. */
export async function importExport(source: 'canny' | 'fider', dir: string, options: ImportOptions, io: Io) {
  const files = folder(dir);
  const currency = (options.currency ?? 'USD').toUpperCase();
  if (!/^[A-Z]{3}$/.test(currency))
    throw new UsageError(`--currency must be a currency code such as USD, not "${options.currency}"`);
  const bundle =
    source === 'canny' ? await readCanny(files, { currency }) : await readFider(files, options.board ?? 'Feedback');
  const summary: ImportSummary = await withEngine(options.db, (e) =>
    e.workspace(options.org).imports.run(bundle, {
      dryRun: options.dryRun === true,
      progress: (kind, done, total) => {
        if (options.json) return;
        // On a terminal, a bar redrawn in place; elsewhere (a log, a pipe), a line each time.
        if (!io.errIsTerminal) return io.err(`${PLURAL[kind]}: ${done} of ${total}\n`);
        const filled = total === 0 ? 20 : Math.round((done / total) * 20);
        io.err(
          `\r[${'#'.repeat(filled)}${'-'.repeat(20 - filled)}] ${PLURAL[kind]}: ${done} of ${total}${done === total ? '\n' : ''}`,
        );
      },
    }),
  );
  const lines = IMPORT_KINDS.map(
    (k) =>
      `${PLURAL[k]}: ${summary.created[k]} ${summary.dryRun ? 'to import' : 'imported'}, ${summary.skipped[k]} there already`,
  );
  print(
    io,
    options.json,
    { ...summary },
    `${summary.dryRun ? 'Dry run: nothing was written.\n' : ''}${lines.join('\n')}`,
  );
}
