/** How a batcher gathers: a batch goes once `min` wait or `delayMs` after the first, at most `max` at a time, `writers` at once. */
export interface BatchLimits {
  max: number;
  min: number;
  delayMs: number;
  writers: number;
}

/**
 * Items written in batches: a batch goes when `min` are waiting or `delayMs` after the first, so a busy scheduler
 * writes a few large statements rather than many small ones. Each item's promise settles when its batch is written
 * (or rejects with the batch's error). At most `writers` batches are written at once.
 */
export class Batcher<T> {
  readonly #limits: BatchLimits;
  readonly #write: (batch: T[]) => Promise<void>;
  readonly #onSettle: () => void;
  readonly #queue: Array<{ item: T; done: (err?: unknown) => void }> = [];
  #writing = 0;
  #timer: NodeJS.Timeout | undefined;

  constructor(limits: BatchLimits, write: (batch: T[]) => Promise<void>, onSettle: () => void = () => {}) {
    this.#limits = limits;
    this.#write = write;
    this.#onSettle = onSettle;
  }

  /** Whether a batch is being written. */
  get busy(): boolean {
    return this.#writing > 0;
  }

  /** Add one item; resolves once its batch is written. */
  add(item: T): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ item, done: (err) => (err ? reject(err) : resolve()) });
      if (this.#queue.length >= this.#limits.min) this.#flush();
      else this.#timer ??= setTimeout(() => this.#flush(), this.#limits.delayMs);
    });
  }

  #flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#writing < this.#limits.writers && this.#queue.length > 0) void this.#drain();
  }

  async #drain(): Promise<void> {
    this.#writing++;
    while (this.#queue.length > 0) {
      const batch = this.#queue.splice(0, this.#limits.max);
      try {
        await this.#write(batch.map((b) => b.item));
        for (const b of batch) b.done();
      } catch (err) {
        for (const b of batch) b.done(err);
      }
      if (this.#queue.length > 0 && this.#queue.length < this.#limits.min) {
        this.#timer ??= setTimeout(() => this.#flush(), this.#limits.delayMs);
        break;
      }
    }
    this.#writing--;
    this.#onSettle();
  }
}
