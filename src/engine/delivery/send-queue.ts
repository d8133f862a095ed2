interface KeyQueue<T> {
  active: number;
  waiting: T[];
}

/**
 * Per-key queues of items waiting to be sent (a key is a webhook; all mail shares one). Sends start in key order,
 * rotating, while fewer than `concurrency` are in flight overall and fewer than `perKey` for that key: a slow
 * receiver holds at most `perKey` of the slots. A slot is free again as soon as its send ends (`attempt`), before its
 * outcome is recorded (`done`).
 */
export function createSendQueue<T, R>(options: {
  concurrency: number;
  perKey: number;
  attempt: (item: T) => Promise<R>;
  done: (key: string, item: T, result: R) => void;
}) {
  const { concurrency, perKey } = options;
  const queues = new Map<string, KeyQueue<T>>();
  let sending = 0;

  function launch(key: string, queue: KeyQueue<T>, item: T): void {
    sending++;
    queue.active++;
    void options.attempt(item).then((result) => {
      sending--;
      queue.active--;
      if (!queues.has(key) && queue.waiting.length > 0) queues.set(key, queue);
      options.done(key, item, result);
      start();
    });
  }

  function start(): void {
    for (const [key, queue] of queues) {
      if (sending >= concurrency) return;
      let launched = false;
      while (queue.active < perKey && queue.waiting.length > 0 && sending < concurrency) {
        launch(key, queue, queue.waiting.shift()!);
        launched = true;
      }
      if (queue.active === 0 && queue.waiting.length === 0) queues.delete(key);
      else if (launched) {
        // The next round starts with the other keys.
        queues.delete(key);
        queues.set(key, queue);
      }
    }
  }

  return {
    /** Queue an item for its key (call `start()` once a batch is queued). */
    push(key: string, item: T): void {
      let queue = queues.get(key);
      if (!queue) queues.set(key, (queue = { active: 0, waiting: [] }));
      queue.waiting.push(item);
    },
    start,
    /** Take back every queued item not yet started (a stopping scheduler gives their claims back). */
    takeWaiting(): T[] {
      const taken: T[] = [];
      for (const [key, queue] of queues) {
        taken.push(...queue.waiting.splice(0));
        if (queue.active === 0) queues.delete(key);
      }
      return taken;
    },
  };
}
