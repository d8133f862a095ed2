import { IntlMessageFormat } from 'intl-messageformat';
import { describe, expect, it } from 'vitest';
import { namesIn } from '../../../src/engine/i18n/wording.js';
import {
  acceptedLanguages,
  CATALOGS,
  checkWording,
  consoleEn,
  LOCALES,
  nearestLocale,
  translator,
} from '../../../src/engine/index.js';
import { html, type SafeHtml } from '../../../src/h3/index.js';

const english = CATALOGS.en;
const keys = Object.keys(english).sort();

/** A value for each of a message's arguments: numbers for the plurals and numbers, text for the rest. */
function sample(message: string): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const name of namesIn(message)) {
    if (name.startsWith('<')) values[name.slice(1, -1)] = (inside: unknown[]) => inside.join('');
    else values[name] = /\{\s*\w+\s*,\s*(plural|number)/.test(message.slice(message.indexOf(`{${name}`))) ? 3 : 'X';
  }
  return values;
}

// The catalogs (src/engine/i18n/catalogs): every language has every message, each parses as ICU MessageFormat, and
// each uses exactly the English message's values and tags, so every page and mail can fill it in.
describe('the message catalogs', () => {
  for (const locale of LOCALES)
    it(`${locale}: every key, no other, each message parses and names what the English one names`, () => {
      const catalog = CATALOGS[locale];
      expect(Object.keys(catalog).sort()).toEqual(keys);
      const faults: string[] = [];
      for (const key of keys) {
        const message = catalog[key as keyof typeof catalog];
        let names: Set<string>;
        try {
          names = namesIn(message);
        } catch (err) {
          faults.push(`${key}: does not parse (${(err as Error).message})`);
          continue;
        }
        for (const name of names) if (names.has(`<${name}>`)) faults.push(`${key}: <${name}> and {${name}}`);
        const wanted = [...namesIn(english[key as keyof typeof english])].sort();
        if (JSON.stringify([...names].sort()) !== JSON.stringify(wanted))
          faults.push(`${key}: names ${[...names].sort().join(' ')}, English ${wanted.join(' ')}`);
        // It formats with values, and leaves no ICU syntax behind (an apostrophe before a brace would quote it).
        const out = new IntlMessageFormat(message, locale).format(sample(message) as never);
        const text = Array.isArray(out) ? out.join('') : String(out);
        if (/[{}]/.test(text)) faults.push(`${key}: formats as ${text}`);
      }
      expect(faults).toEqual([]);
    });

  it("the console's messages (English this turn) parse and format, leaving no ICU syntax behind", () => {
    const faults: string[] = [];
    for (const [key, message] of Object.entries(consoleEn)) {
      const names = namesIn(message);
      // A tag is never named as a value is: the value would be written in the tag's place.
      for (const name of names) if (names.has(`<${name}>`)) faults.push(`${key}: <${name}> and {${name}}`);
      try {
        const out = new IntlMessageFormat(message, 'en').format(sample(message) as never);
        const text = Array.isArray(out) ? out.join('') : String(out);
        // Braces quoted in the message ('{…}') are meant: a JSON body, an address's placeholder.
        if (/[{}]/.test(text) && !message.includes("'{")) faults.push(`${key}: formats as ${text}`);
      } catch (err) {
        faults.push(`${key}: ${(err as Error).message}`);
      }
    }
    expect(Object.keys(consoleEn).length).toBeGreaterThan(300);
    expect(faults).toEqual([]);
  });

  it('the translations are translations: most messages differ from the English one', () => {
    for (const locale of LOCALES.filter((l) => l !== 'en')) {
      const same = keys.filter(
        (k) => CATALOGS[locale][k as keyof typeof english] === english[k as keyof typeof english],
      );
      // Some are the same word in both ("Status", "Feedback", "{label}: {url}"); a copied catalog would be all.
      expect(same.length / keys.length, `${locale}: ${same.join(', ')}`).toBeLessThan(0.1);
    }
  });

  it('plurals follow each language: one, other; none in Japanese and Chinese; six forms in Arabic', () => {
    expect(
      ['en', 'de', 'fr', 'ja', 'zh-CN', 'ar'].map((l) => translator(l as never).t('vote.count', { count: 1 })),
    ).toEqual(['1 vote', '1 Stimme', '1 vote', '1票', '1 票', 'صوت واحد']);
    const ar = translator('ar');
    expect([0, 2, 3, 11, 100].map((count) => ar.t('vote.count', { count }))).toEqual([
      'لا أصوات',
      'صوتان',
      // CLDR's Arabic writes Western digits unless a region asks otherwise.
      '3 أصوات',
      '11 صوتًا',
      '100 صوت',
    ]);
    expect(translator('de').t('page.wait', { seconds: 1 })).toBe('Bitte warte 1 Sekunde und versuche es erneut.');
  });

  it('text values are escaped in HTML messages; tags wrap their inside', () => {
    const tr = translator('fr');
    expect(
      String(
        tr.html(
          'merged.into',
          { title: '<b>Dark & light</b>' },
          { link: (inside) => html`<a href="/p">${inside}</a>` },
        ),
      ),
    ).toBe(
      'Cette publication a été fusionnée avec <a href="/p">&lt;b&gt;Dark &amp; light&lt;/b&gt;</a> : les votes et les commentaires continuent là-bas.',
    );
  });

  it('a message that is one tag, or one HTML value, is that alone', () => {
    const tr = translator();
    const bold = { strong: (inside: SafeHtml) => html`<b>${inside}</b>` };
    expect(String(tr.html('account.signedInAs', { name: 'A&B' }, bold))).toBe('Signed in as <b>A&amp;B</b>');
    expect(String(tr.html('console.webhooks.disabled', {}, { held: (inside) => html`<i>${inside}</i>` }))).toBe(
      '<i>Disabled</i>',
    );
  });

  it('dates and relative times in the language; Arabic right to left', () => {
    const now = Date.parse('2026-11-28T12:00:00Z');
    expect(translator('de').relativeTime('2026-11-25T12:00:00Z', now)).toBe('vor 3 Tagen');
    expect(translator('ja').relativeTime('2026-11-28T11:59:50Z', now)).toBe('たった今');
    expect(translator('en').exactTime('2026-11-28T14:03:00Z')).toBe('Nov 28, 2026, 14:03 UTC');
    expect(translator('de').exactTime('2026-11-28T14:03:00Z')).toBe('28.11.2026, 14:03 UTC');
    expect([translator('ar').dir, translator('de').dir]).toEqual(['rtl', 'ltr']);
  });
});

describe('which language a person gets', () => {
  it('a tag is matched to the nearest language we have, in the order asked; none near enough is null', () => {
    expect(nearestLocale(['de-AT'])).toBe('de');
    expect(nearestLocale(['pt'])).toBe('pt-BR');
    expect(nearestLocale(['pt-PT'])).toBe('pt-BR');
    expect(nearestLocale(['zh-SG'])).toBe('zh-CN');
    expect(nearestLocale(['zh-TW'])).toBeNull(); // Traditional is not Simplified
    expect(nearestLocale(['sv', 'fr-CA', 'de'])).toBe('fr');
    expect(nearestLocale(['not a tag', '', null, undefined])).toBeNull();
  });

  it('Accept-Language is read by quality, leaving out * and q=0', () => {
    expect(acceptedLanguages('en;q=0.3, ja-JP, de;q=0.9, *;q=0.1, fr;q=0')).toEqual(['ja-JP', 'de', 'en']);
    expect(nearestLocale(acceptedLanguages('sv-SE,sv;q=0.9,nl;q=0.8,en;q=0.7'))).toBe('nl');
    expect(acceptedLanguages(undefined)).toEqual([]);
  });
});

describe("a workspace's own wording", () => {
  it('replaces a message in one language, and is checked: a language of ours, a message of ours, ICU, its values only', () => {
    expect(checkWording('de', 'board.newPost', 'Idee einreichen')).toBeNull();
    expect(checkWording('de', 'boards.posts', '{count, plural, one {# Idee} other {# Ideen}}')).toBeNull();
    expect(checkWording('sv', 'board.newPost', 'Ny idé')).toMatch(/not one of the portal's languages/);
    expect(checkWording('de', 'board.nope', 'x')).toMatch(/not a message of the portal/);
    expect(checkWording('de', 'board.newPost', 'Neu {')).toMatch(/not ICU MessageFormat/);
    expect(checkWording('de', 'board.newPost', 'Neu für {workspace}')).toMatch(
      /uses workspace, which board.newPost does not have/,
    );
    expect(checkWording('de', 'board.newPost', '')).toMatch(/1 to 1000 characters/);
    const tr = translator('de', { de: { 'board.newPost': 'Idee einreichen' } });
    expect([tr.t('board.newPost'), tr.t('board.search')]).toEqual(['Idee einreichen', 'Beiträge durchsuchen']);
    // The catalogs' own translator is untouched.
    expect(translator('de').t('board.newPost')).toBe('Neuer Beitrag');
  });
});
