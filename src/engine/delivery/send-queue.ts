interface KeyQueue<T> {
  active: number;
  waiting: T[];
}

export interface SendQueueOptions<T, R> {
  /** Sends in flight at most, overall and per key. */
  concurrency: number;
  perKey: number;
  attempt: (item: T) => Promise<R>;
  /** An item's send ended (its slot is free again): record its outcome. */
  done: (key: string, item: T, result: R) => void;
}

/**
 * Per-key queues of items waiting to be sent (a key is a webhook; all mail shares one). Sends start in key order,
 * rotating, while fewer than `concurrency` are in flight overall and fewer than `perKey` for that key: a slow
 * receiver holds at most `perKey` of the slots. A slot is free again as soon as its send ends (`attempt`), before its
 * outcome is recorded (`done`).
 */
export class SendQueue<T, R> {
  readonly #options: SendQueueOptions<T, R>;
  readonly #queues = new Map<string, KeyQueue<T>>();
  #sending = 0;

  constructor(options: SendQueueOptions<T, R>) {
    this.#options = options;
  }

  /** Sends in flight now. */
  get sending(): number {
    return this.#sending;
  }

  /** Queue an item for its key (call `start()` once a batch is queued). */
  push(key: string, item: T): void {
    let queue = this.#queues.get(key);
    if (!queue) this.#queues.set(key, (queue = { active: 0, waiting: [] }));
    queue.waiting.push(item);
  }

  /** Start what the limits allow, keys in rotation. */
  start(): void {
    const { concurrency, perKey } = this.#options;
    for (const [key, queue] of this.#queues) {
      if (this.#sending >= concurrency) return;
      let launched = false;
      while (queue.active < perKey && queue.waiting.length > 0 && this.#sending < concurrency) {
        this.#launch(key, queue, queue.waiting.shift()!);
        launched = true;
      }
      if (queue.active === 0 && queue.waiting.length === 0) this.#queues.delete(key);
      else if (launched) {
        // The next round starts with the other keys.
        this.#queues.delete(key);
        this.#queues.set(key, queue);
      }
    }
  }

  /** Take back every queued item not yet started (a stopping scheduler gives their claims back). */
  takeWaiting(): T[] {
    const taken: T[] = [];
    for (const [key, queue] of this.#queues) {
      taken.push(...queue.waiting.splice(0));
      if (queue.active === 0) this.#queues.delete(key);
    }
    return taken;
  }

  #launch(key: string, queue: KeyQueue<T>, item: T): void {
    this.#sending++;
    queue.active++;
    void this.#options.attempt(item).then((result) => {
      this.#sending--;
      queue.active--;
      if (!this.#queues.has(key) && queue.waiting.length > 0) this.#queues.set(key, queue);
      this.#options.done(key, item, result);
      this.start();
    });
  }
}

export function createSendQueue<T, R>(options: SendQueueOptions<T, R>): SendQueue<T, R> {
  return new SendQueue(options);
}
