// The search benchmarks' fixture (bench/search.ts, bench/forgive.ts): made-up words drawn with a skew, posts of
// BOARDS boards with titles and bodies of varied length, and the queries people type, built from posts that exist.
import type { Engine } from '../src/engine/index.js';
import { newId } from '../src/engine/shared/ids.js';
import { ts } from '../src/engine/store/index.js';
import { insertPosts } from './measure.js';

export const BOARDS = 10;
export const VOCABULARY = 5000;

/**
 * The vocabulary: VOCABULARY made-up words of 2 to 4 syllables (4 to 8 letters), numbered by how common they are, and
 * drawn with a skew, as text is: low numbers are common, high ones rare. Spelled from their number by a hash, so, as in
 * a language, how common a word is says nothing of the words that share its first letters.
 */
const SYLLABLES = [...'bcdfghjklmnprstvz'].flatMap((c) => [...'aeiou'].map((v) => c + v));
const spelled = (n: number) => {
  let h = Math.imul(n + 1, 0x9e3779b1) >>> 0;
  const parts: string[] = [];
  for (let k = 0; k < 2 + (n % 3); k++) {
    parts.push(SYLLABLES[h % SYLLABLES.length]!);
    h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) >>> 0;
  }
  return parts.join('');
};
export const word = (seed: number) => spelled(Math.floor(VOCABULARY * ((seed * 0.6180339887) % 1) ** 2));
export const words = (seed: number, n: number) =>
  Array.from({ length: n }, (_, k) => word(seed * 31 + k * 7 + 1)).join(' ');
/** A post's title (3 to 9 words) and body (4 to 79 words): lengths vary as people write. */
export const titleOf = (i: number) => words(i, 3 + (i % 7));
export const bodyOf = (i: number) => words(i + 1_000_003, 4 + ((i * 37) % 76));

/**
 * Queries people type, built from posts that exist (so each finds at least one): two words of a title of the first
 * board, the second as typed so far (its first 3 to 5 letters).
 */
export const queriesFor = (size: number) =>
  Array.from({ length: 50 }, (_, i) => {
    const n = ((i * 7919) % (size / BOARDS)) * BOARDS;
    const title = titleOf(n).split(' ');
    const typed = title[2]!;
    return `${title[0]} ${typed.slice(0, Math.min(typed.length - 1, 3 + (i % 3)))}`;
  });

/** A workspace of BOARDS boards holding `size` posts, loaded in bulk. */
export async function seedPosts(engine: Engine, size: number) {
  const org = await engine.organizations.create({ name: 'Bench', plan: 'paid' });
  const w = engine.workspace(org.id);
  const boards: Array<{ id: string }> = [];
  for (let b = 0; b < BOARDS; b++) boards.push(await w.boards.create({ name: `Board ${b}` }));
  const start = Date.now() - 365 * 24 * 3600_000;
  const at = (i: number) => ts(engine.db, new Date(start + Math.floor((i / size) * 365 * 24 * 3600_000)));
  await insertPosts(engine, size, (i) => ({
    id: newId('post'),
    organizationId: org.id,
    boardId: boards[i % BOARDS]!.id,
    title: titleOf(i),
    slug: `p-${i}`,
    bodyText: bodyOf(i),
    status: 'open',
    voteCount: (i * 7919) % 500,
    at: at(i),
  }));
  return { org, w, boards, at };
}
