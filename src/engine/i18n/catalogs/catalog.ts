import type { consoleEn } from './console/index.js';
import type { en } from './en.js';

/** A message's name: every key of the English catalog, which the others translate. */
export type MessageKey = keyof typeof en;
/** A complete catalog: the compiler, and test/engine/i18n/catalogs.test.ts, refuse one that misses a key. */
export type Catalog = Readonly<Record<MessageKey, string>>;
/** A message of the console (English only this turn: docs/console.md). */
export type ConsoleKey = keyof typeof consoleEn;
