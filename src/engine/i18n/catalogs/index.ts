import type { Locale } from '../locales.js';
import { ar } from './ar.js';
import type { Catalog } from './catalog.js';
import { de } from './de.js';
import { en } from './en.js';
import { es } from './es.js';
import { fr } from './fr.js';
import { it } from './it.js';
import { ja } from './ja.js';
import { nl } from './nl.js';
import { ptBR } from './pt-BR.js';
import { zhCN } from './zh-CN.js';

export type { Catalog, ConsoleKey, MessageKey } from './catalog.js';
export { consoleEn } from './console/index.js';

export const CATALOGS: Readonly<Record<Locale, Catalog>> = {
  en,
  de,
  fr,
  es,
  'pt-BR': ptBR,
  it,
  nl,
  ja,
  'zh-CN': zhCN,
  ar,
};
