// An optional OpenAI-compatible embeddings endpoint (`--embeddings-url`: Ollama, llama.cpp's server, or any service
// that answers `POST {url}/embeddings`), for a similarity of meaning beside the lexical one (docs/search.md). Posts'
// titles are embedded by a chore and kept (post_embedding); a typed title is embedded when asked, within a short time;
// when the endpoint is down or slow, the lexical similarity answers alone.
import { type Database, postEmbeddings } from '../store/index.js';

export interface EmbeddingsOptions {
  /** The endpoint's base, e.g. `http://127.0.0.1:11434/v1`: requests go to `{url}/embeddings`. */
  url: string;
  /** The model the endpoint is asked for (`nomic-embed-text` by default). */
  model?: string;
  /** Sent as `Authorization: Bearer …` when given. */
  apiKey?: string;
  /** How long a typed title's embedding may take before the lexical similarity answers alone (ms, 500 by default). */
  timeoutMs?: number;
}

export interface Embeddings {
  readonly model: string;
  /** The texts' vectors, or null when the endpoint did not answer in time or answered something else. */
  embed(texts: readonly string[], timeoutMs?: number): Promise<Float32Array[] | null>;
}

/** Posts embedded per request to the endpoint, by the chore. */
const BATCH = 32;
/** Batches per run of the chore (a minute apart): the rest waits for the next run. */
const BATCHES_PER_RUN = 20;

export function createEmbeddings(
  options: EmbeddingsOptions,
  log: (message: string, error?: unknown) => void,
): Embeddings {
  const model = options.model ?? 'nomic-embed-text';
  const endpoint = `${options.url.replace(/\/+$/, '')}/embeddings`;
  return {
    model,
    async embed(texts, timeoutMs = options.timeoutMs ?? 500) {
      try {
        const res = await fetch(endpoint, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
          },
          body: JSON.stringify({ model, input: texts }),
          signal: AbortSignal.timeout(timeoutMs),
        });
        if (!res.ok) {
          log(`[feedback-service] the embeddings endpoint answered ${res.status}`);
          return null;
        }
        const body = (await res.json()) as { data?: Array<{ embedding?: unknown; index?: number }> };
        const data = [...(body.data ?? [])].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
        if (data.length !== texts.length || !data.every((d) => Array.isArray(d.embedding))) return null;
        return data.map((d) => Float32Array.from(d.embedding as number[]));
      } catch (err) {
        log('[feedback-service] the embeddings endpoint did not answer', err);
        return null;
      }
    },
  };
}

/**
 * The chore: embed the titles of posts that have no vector of the model yet (or one of an older title), a batch per
 * request; each batch is kept as it comes back, and a batch the endpoint does not answer waits for the next run.
 */
export async function embedPending(db: Database, embeddings: Embeddings, clock: () => Date): Promise<number> {
  let done = 0;
  for (let run = 0; run < BATCHES_PER_RUN; run++) {
    const batch = await postEmbeddings.pending(db, embeddings.model, BATCH);
    if (batch.length === 0) break;
    const vectors = await embeddings.embed(
      batch.map((p) => p.title),
      30_000,
    );
    if (!vectors) break;
    await db.transaction((tx) =>
      postEmbeddings.save(
        tx,
        embeddings.model,
        batch.map((p, i) => ({ ...p, vector: vectors[i]! })),
        clock(),
      ),
    );
    done += batch.length;
    if (batch.length < BATCH) break;
  }
  return done;
}

/** Cosine similarity of two vectors (0 when either is all zeros or their lengths differ). */
export function cosine(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) return 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
