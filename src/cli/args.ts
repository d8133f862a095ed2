import { parseArgs, type ParseArgsConfig } from 'node:util';

export class UsageError extends Error {}

/** A command that could not do its work for a reason the user can act on: exit 1, `{ error: { code, message } }`. */
export class CommandError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Parse a command's flags strictly: unknown flags are a usage error, not silently ignored, with the nearest known one. */
export function parseFlags<T extends NonNullable<ParseArgsConfig['options']>>(argv: string[], options: T) {
  try {
    return parseArgs({ args: argv, options: { ...options, json: { type: 'boolean' } }, allowPositionals: true, strict: true });
  } catch (err) {
    const unknown = /Unknown option '(-{1,2}[^']+)'/.exec((err as Error).message)?.[1];
    const guess = unknown && nearest(unknown.replace(/^-+/, ''), [...Object.keys(options), 'json']);
    throw new UsageError(unknown ? `unknown option ${unknown}${guess ? `; did you mean --${guess}?` : ''}` : (err as Error).message);
  }
}

/** The candidate nearest to `word` (Levenshtein distance at most a third of its length, and at most 3), or null. */
export function nearest(word: string, candidates: readonly string[]): string | null {
  let best: string | null = null;
  let bestDistance = Math.min(3, Math.max(1, Math.floor(word.length / 3)));
  for (const c of candidates) {
    const d = distance(word, c);
    if (d <= bestDistance && (best === null || d < bestDistance)) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}

/** Edit distance with adjacent transpositions counting one (optimal string alignment): `prot` is one from `port`. */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

export function intFlag(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`--${name} must be a whole number`);
  return Number(value);
}

/** A command's missing or unknown subcommand: what it takes, and the nearest one to what was typed. */
export function subcommandError(command: string, typed: string | undefined, subcommands: readonly string[]): UsageError {
  const list = subcommands.length > 1 ? `${subcommands.slice(0, -1).join(', ')} or ${subcommands.at(-1)}` : subcommands[0];
  const guess = typed === undefined ? null : nearest(typed, subcommands);
  return new UsageError(
    typed === undefined ? `${command} needs ${list}` : `unknown subcommand: ${command} ${typed}; ${guess ? `did you mean ${command} ${guess}?` : `use ${list}`}`,
  );
}
