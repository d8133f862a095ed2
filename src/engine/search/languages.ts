/**
 * The languages a workspace's posts may be read in on PostgreSQL: its built-in text search configurations. `simple`
 * (the default) splits words and folds case, for any language; the others also stem words (`exports` is `export`).
 * These are in every PostgreSQL from 13 on.
 */
export const SEARCH_LANGUAGES = [
  'simple',
  'arabic',
  'danish',
  'dutch',
  'english',
  'finnish',
  'french',
  'german',
  'greek',
  'hungarian',
  'indonesian',
  'irish',
  'italian',
  'lithuanian',
  'nepali',
  'norwegian',
  'portuguese',
  'romanian',
  'russian',
  'spanish',
  'swedish',
  'tamil',
  'turkish',
] as const;
export type SearchLanguage = (typeof SEARCH_LANGUAGES)[number];
