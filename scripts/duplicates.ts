// The duplicate detection's labelled set (test/fixtures/search/duplicates.json) scored by the similarity the portal and
// the console use (engine/search/similar.ts) and by the one before it (the portal's "similar posts" of 0.2.0: a post
// shared one of the title's three longest words, as a prefix); precision and recall at thresholds. `npx tsx
// scripts/duplicates.ts` prints the table docs/search.md shows; test/engine/search/similar.test.ts holds the gains.
// With `--embeddings-url URL [--embeddings-model NAME]` (an OpenAI-compatible endpoint, as `serve` takes), also the
// similarity with meaning: the better of the lexical one and the endpoint's cosine as the engine maps it
// (similar-posts.ts); scripts/embeddings-server.mjs serves a model from the npm registry for it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  cosine,
  createEmbeddings,
  DUPLICATE_THRESHOLD,
  semanticScore,
  similarity,
  titleReader,
} from '../src/engine/search/index.js';

export interface Labelled {
  same: [string, string][];
  different: [string, string][];
}

export const labelled = (): Labelled =>
  JSON.parse(readFileSync(join(import.meta.dirname, '../test/fixtures/search/duplicates.json'), 'utf8'));

/** The similarity over the set, each word weighed by how many of the set's titles hold it. */
export function scorer(set: Labelled) {
  const titles = [...new Set([...set.same, ...set.different].flat())];
  const read = titleReader('english');
  const df = new Map<string, number>();
  for (const t of titles) for (const w of read(t)) df.set(w, (df.get(w) ?? 0) + 1);
  const weight = (w: string) => Math.log(1 + titles.length / (df.get(w) ?? 1));
  return (a: string, b: string) => similarity(read(a), read(b), weight);
}

/** 0.2.0's: how many of a's three longest words (3 letters or more) start a word of b. */
export function before(a: string, b: string): number {
  const words = (t: string) =>
    t
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean);
  const longest = [...new Set(words(a).filter((w) => w.length >= 3))].sort((x, y) => y.length - x.length).slice(0, 3);
  return longest.filter((w) => words(b).some((u) => u.startsWith(w))).length;
}

/** Precision and recall of "score >= threshold" over the set. */
export function measure(set: Labelled, score: (a: string, b: string) => number, threshold: number) {
  const tp = set.same.filter(([a, b]) => score(a, b) >= threshold).length;
  const fp = set.different.filter(([a, b]) => score(a, b) >= threshold).length;
  const precision = tp + fp === 0 ? 1 : tp / (tp + fp);
  const recall = tp / set.same.length;
  return { precision, recall, f1: precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const set = labelled();
  const score = scorer(set);
  const pct = (x: number) => `${(x * 100).toFixed(0)} %`;
  console.log(`${set.same.length} pairs asking the same, ${set.different.length} not\n`);
  console.log('| similarity | threshold | precision | recall | F1 |\n|---|---|---|---|---|');
  for (const k of [1, 2]) {
    const m = measure(set, before, k);
    console.log(
      `| before (0.2.0): shares ${k} of the 3 longest words | ${k} | ${pct(m.precision)} | ${pct(m.recall)} | ${m.f1.toFixed(2)} |`,
    );
  }
  for (const t of [0.3, 0.4, 0.45, 0.5, 0.55, 0.6, 0.7]) {
    const m = measure(set, score, t);
    console.log(
      `| now${t === DUPLICATE_THRESHOLD ? ' (chosen)' : ''} | ${t} | ${pct(m.precision)} | ${pct(m.recall)} | ${m.f1.toFixed(2)} |`,
    );
  }
  const url = option('--embeddings-url');
  if (url) await withMeaning(set, score, url, option('--embeddings-model'));
  const misses = set.same.filter(([a, b]) => score(a, b) < DUPLICATE_THRESHOLD);
  const wrong = set.different.filter(([a, b]) => score(a, b) >= DUPLICATE_THRESHOLD);
  console.log(
    `\nmissed (${misses.length}):`,
    misses.map((p) => `${p.join(' / ')} ${score(...p).toFixed(2)}`).join('; '),
  );
  console.log(
    `\ntaken wrongly (${wrong.length}):`,
    wrong.map((p) => `${p.join(' / ')} ${score(...p).toFixed(2)}`).join('; '),
  );
}

function option(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** The set's titles embedded by the endpoint: the similarity with meaning, and the cosines of each kind of pair. */
async function withMeaning(set: Labelled, lexical: (a: string, b: string) => number, url: string, model?: string) {
  const embeddings = createEmbeddings({ url, ...(model ? { model } : {}) }, (m, e) => console.error(m, e ?? ''));
  const titles = [...new Set([...set.same, ...set.different].flat())];
  const vectors = new Map<string, Float32Array>();
  for (let i = 0; i < titles.length; i += 32) {
    const batch = titles.slice(i, i + 32);
    const got = await embeddings.embed(batch, 120_000);
    if (!got) throw new Error(`the endpoint at ${url} did not embed the titles`);
    for (const [k, t] of batch.entries()) vectors.set(t, got[k]!);
  }
  const cos = (a: string, b: string) => cosine(vectors.get(a)!, vectors.get(b)!);
  const both = (a: string, b: string) => Math.max(lexical(a, b), semanticScore(cos(a, b)));
  const pct = (x: number) => `${(x * 100).toFixed(0)} %`;
  const median = (xs: number[]) => xs.sort((x, y) => x - y)[xs.length >> 1]!.toFixed(2);
  console.log(`\nwith the meaning of ${embeddings.model} at ${url}:`);
  console.log(
    `cosine, median: pairs asking the same ${median(set.same.map((p) => cos(...p)))}, not ${median(set.different.map((p) => cos(...p)))}\n`,
  );
  console.log('| similarity | threshold | precision | recall | F1 |\n|---|---|---|---|---|');
  for (const t of [0.4, 0.45, 0.5, 0.55, 0.6]) {
    const m = measure(set, both, t);
    console.log(
      `| lexical or meaning${t === DUPLICATE_THRESHOLD ? ' (chosen)' : ''} | ${t} | ${pct(m.precision)} | ${pct(m.recall)} | ${m.f1.toFixed(2)} |`,
    );
  }
  for (const c of [0.5, 0.6, 0.7, 0.8, 0.9]) {
    const m = measure(set, cos, c);
    console.log(`| meaning alone (cosine) | ${c} | ${pct(m.precision)} | ${pct(m.recall)} | ${m.f1.toFixed(2)} |`);
  }
}
