import { describe, expect, it } from 'vitest';
import { parseSearch } from '../../../src/engine/search/index.js';
import { fts5Query, tsQuery } from '../../../src/engine/store/tables/search.js';

describe('the search syntax', () => {
  it('words are ANDed, each also as a prefix; quoted phrases match word for word', () => {
    expect(parseSearch('Dark  mode')).toEqual([
      { words: ['dark'], prefix: true },
      { words: ['mode'], prefix: true },
    ]);
    expect(parseSearch('"dark mode" editor')).toEqual([
      { words: ['dark', 'mode'], prefix: false },
      { words: ['editor'], prefix: true },
    ]);
    expect(parseSearch('"editor"')).toEqual([{ words: ['editor'], prefix: false }]);
  });

  it('keeps letters and digits of any script; everything else separates words, and a hyphenated word is a phrase', () => {
    expect(parseSearch('café e-mail 2FA')).toEqual([
      { words: ['café'], prefix: true },
      { words: ['e', 'mail'], prefix: false },
      { words: ['2fa'], prefix: true },
    ]);
    expect(parseSearch('深色模式 тёмная')).toEqual([
      { words: ['深色模式'], prefix: true },
      { words: ['тёмная'], prefix: true },
    ]);
  });

  it('a one-letter word is whole; an unclosed quote runs to the end; nothing searchable is no term', () => {
    expect(parseSearch('a b')).toEqual([
      { words: ['a'], prefix: false },
      { words: ['b'], prefix: false },
    ]);
    expect(parseSearch('"dark mo')).toEqual([{ words: ['dark', 'mo'], prefix: false }]);
    expect(parseSearch('  "" *** ')).toEqual([]);
  });

  it('takes at most 16 words', () => {
    const terms = parseSearch(Array.from({ length: 40 }, (_, i) => `w${i}`).join(' '));
    expect(terms).toHaveLength(16);
    expect(terms.at(-1)!.words).toEqual(['w15']);
  });

  it('reads as FTS5 and as a tsquery, with nothing of the input but letters and digits', () => {
    const terms = parseSearch(`"dark mode" export's OR -x NEAR( {title}:`);
    expect(fts5Query(terms, ['title', 'body'])).toBe(
      '{title body} : ("dark mode" AND "export s" AND "or"* AND "x" AND "near"* AND "title"*)',
    );
    expect(tsQuery(terms)).toBe("('dark' <-> 'mode') & ('export' <-> 's') & 'or':* & 'x' & 'near':* & 'title':*");
  });
});
