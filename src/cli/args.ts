import { accessSync, constants, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
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
  if (!m || Number(m[1]) === 0)
    throw new InvalidArgumentError('It must be a whole number above 0 with ms, s or m (e.g. 500ms, 5s).');
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

/** A TCP port: 0 (any free one) to 65535. */
export function port(value: string): number {
  const n = wholeNumber(value);
  if (n > 65535) throw new InvalidArgumentError('It must be a port from 0 to 65535 (0: any free port).');
  return n;
}

/** An SMTP server's address: smtp:// (STARTTLS when offered) or smtps:// (TLS), with a host. */
export function smtpUrl(value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {}
  if (!url || (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') || !url.hostname) {
    throw new InvalidArgumentError('It must be smtp://user:pass@host:587 or smtps://user:pass@host:465.');
  }
  return value;
}

/**
 * `--db` (and DATABASE_URL): a postgres:// URL, `:memory:`, or a SQLite file that can be opened or created where it
 * is: checked before anything starts, so a wrong value never creates a file named after a URL.
 */
export function database(value: string): string {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(value)?.[1]?.toLowerCase();
  if (scheme === 'postgres' || scheme === 'postgresql' || value === ':memory:') return value;
  if (scheme)
    throw new InvalidArgumentError(`It must be a SQLite file or a postgres:// URL; ${scheme}:// is not supported.`);
  const stat = statSync(value, { throwIfNoEntry: false });
  if (stat?.isDirectory())
    throw new InvalidArgumentError(`It is a directory; name a file in it, e.g. ${join(value, 'feedback.db')}.`);
  const where = stat ? value : dirname(value);
  if (!stat && !statSync(where, { throwIfNoEntry: false })?.isDirectory())
    throw new InvalidArgumentError(`Its directory ${where} does not exist.`);
  try {
    accessSync(where, constants.R_OK | constants.W_OK);
  } catch {
    throw new InvalidArgumentError(
      stat ? 'The file cannot be written (check its permissions).' : `Its directory ${where} cannot be written.`,
    );
  }
  return value;
}

/** A repeatable flag: every occurrence, in order. */
export function repeated(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** pino's levels, for `--log-level` and `LOG_LEVEL`. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
