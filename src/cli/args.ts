import { InvalidArgumentError } from 'commander';

/** A command line that does not say what to do: exit 2, `{ error: { code: 'ERR_USAGE', message } }`. */
export class UsageError extends Error {
  constructor(
    message: string,
    /** The command whose help to point to (`org create`), or '' for the program's. */
    readonly command = '',
  ) {
    super(message);
  }
}

/** A command that could not do its work for a reason the user can act on: exit 1, `{ error: { code, message } }`. */
export class CommandError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

// Value parsers for commander options: each turns the flag's text into its value or refuses it, before any command
// module is loaded.

/** A whole number (digits only). */
export function wholeNumber(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('It must be a whole number.');
  return Number(value);
}

// Words stay words (commander turns a parsed null into ''): the command maps `none` and `default` to what they mean.

/** `--contact-cap` on create: a number, or `none` (no cap). */
export function contactCap(value: string): number | 'none' {
  return value === 'none' ? value : orWord(value, 'none');
}

/** `--contact-cap` on update: a number, `none`, or `default` (back to the plan's cap). */
export function contactCapOrDefault(value: string): number | 'none' | 'default' {
  return value === 'none' || value === 'default' ? value : orWord(value, 'none or default');
}

/** `--rate-limit` on update: a number, or `default` (back to the default). */
export function rateLimitOrDefault(value: string): number | 'default' {
  return value === 'default' ? value : orWord(value, 'default');
}

function orWord(value: string, words: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError(`It must be a whole number or ${words}.`);
  return Number(value);
}

/** A length of time: `0`, or a whole number with s, m, h or d (`90s`, `30m`, `24h`, `7d`); in seconds. */
export function duration(value: string): number {
  const m = /^(\d+)([smhd])$/.exec(value) ?? (value === '0' ? ['0', '0', 's'] : null);
  if (!m) throw new InvalidArgumentError('It must be 0 or a whole number with s, m, h or d (e.g. 24h).');
  return Number(m[1]) * { s: 1, m: 60, h: 3600, d: 86400 }[m[2] as 's' | 'm' | 'h' | 'd'];
}

/** A timeout: a whole number with ms, s or m (`500ms`, `5s`, `1m`); in milliseconds, at least 1. */
export function timeout(value: string): number {
  const m = /^(\d+)(ms|s|m)$/.exec(value);
  if (!m || Number(m[1]) === 0) throw new InvalidArgumentError('It must be a whole number above 0 with ms, s or m (e.g. 500ms, 5s).');
  return Number(m[1]) * { ms: 1, s: 1000, m: 60_000 }[m[2] as 'ms' | 's' | 'm'];
}

/** An http(s) address with a host (`--public-url`), without a trailing slash. */
export function httpUrl(value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {}
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || !url.host || url.search || url.hash) {
    throw new InvalidArgumentError('It must be an http(s) address, e.g. https://feedback.example.com.');
  }
  return value.replace(/\/+$/, '');
}

/** A repeatable flag: every occurrence, in order. */
export function repeated(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** pino's levels, for `--log-level` and `LOG_LEVEL`. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
