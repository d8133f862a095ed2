/**
 * Gathering for a database reached over the network (PostgreSQL): calls of one kind and key (one rate-limit window, one
 * workspace's identify reads) made while such a call is on its way are held, and sent together as one statement when
 * it returns; each caller gets its own result. A lone call goes at once, so an idle server adds no wait; under load, a
 * round trip serves every call that arrived during the one before. What a batch computes must be what the calls would
 * have computed one after another, in arrival order (each `run` says how).
 */
export interface Gather {
  /**
   * `input`'s result from `run(inputs)`, which gets every input gathered under `kind` and `key` in arrival order and
   * returns one result per input, in the same order: a value, or `Failed` for a call that failed alone. If `run`
   * throws, every call of its batch fails with that error. A batch is run by the `run` of the call that found nothing
   * on its way, so the calls of one kind and key must pass the same work (the key names what their `run`s close over).
   */
  one<I, O>(kind: string, key: string, input: I, run: (inputs: I[]) => Promise<Array<O | Failed>>): Promise<O>;
}

/** One call's failure among a batch's results: that call fails with `error`, the others do not. */
export class Failed {
  constructor(readonly error: unknown) {}
}

/**
 * `input`'s result, gathered under `kind` and `key` where `sql` gathers (PostgreSQL's engine database); elsewhere
 * (SQLite, a transaction) `run([input])` at once. One way in for every gathered statement, so each has one batch path.
 */
export async function gathered<I, O>(
  sql: object,
  kind: string,
  key: string,
  input: I,
  run: (inputs: I[]) => Promise<Array<O | Failed>>,
): Promise<O> {
  const gather = 'gather' in sql ? (sql.gather as Gather | undefined) : undefined;
  if (gather) return gather.one(kind, key, input, run);
  const [result] = await run([input]);
  if (result instanceof Failed) throw result.error;
  return result as O;
}

/** The most calls one batch takes; the rest wait for the next. */
const MAX_BATCH = 500;

interface Waiting {
  input: unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

export function createGather(): Gather {
  /** Per kind and key: the calls waiting for the batch on its way to return (present while one is on its way). */
  const lines = new Map<string, { waiting: Waiting[]; run: (inputs: unknown[]) => Promise<unknown[]> }>();

  const send = (id: string, batch: Waiting[], run: (inputs: unknown[]) => Promise<unknown[]>) => {
    run(batch.map((w) => w.input)).then(
      (results) => {
        batch.forEach((w, i) => {
          const result = results[i];
          if (result instanceof Failed) w.reject(result.error);
          else w.resolve(result);
        });
        next(id);
      },
      (error) => {
        for (const w of batch) w.reject(error);
        next(id);
      },
    );
  };

  const next = (id: string) => {
    const line = lines.get(id)!;
    if (line.waiting.length === 0) {
      lines.delete(id);
      return;
    }
    send(id, line.waiting.splice(0, MAX_BATCH), line.run);
  };

  return {
    one<I, O>(kind: string, key: string, input: I, run: (inputs: I[]) => Promise<Array<O | Failed>>): Promise<O> {
      const id = `${kind}\u0000${key}`;
      return new Promise<O>((resolve, reject) => {
        const waiting: Waiting = { input, resolve: resolve as (value: unknown) => void, reject };
        const line = lines.get(id);
        if (line) {
          line.waiting.push(waiting);
          return;
        }
        const runAny = run as (inputs: unknown[]) => Promise<unknown[]>;
        lines.set(id, { waiting: [], run: runAny });
        send(id, [waiting], runAny);
      });
    },
  };
}
