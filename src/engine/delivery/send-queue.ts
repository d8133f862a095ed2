interface WebhookQueue<T> {
  active: number;
  waiting: T[];
}

/**
 * Per-webhook queues of deliveries waiting to be sent. Sends start in webhook order, rotating, while fewer than
 * `concurrency` are in flight overall and fewer than `perWebhook` to that webhook: a slow receiver holds at most
 * `perWebhook` of the slots. A slot is free again as soon as its request ends (`attempt`), before its outcome is
 * recorded (`done`).
 */
export function createSendQueue<T, R>(options: {
  concurrency: number;
  perWebhook: number;
  attempt: (item: T) => Promise<R>;
  done: (webhookId: string, item: T, result: R) => void;
}) {
  const { concurrency, perWebhook } = options;
  const queues = new Map<string, WebhookQueue<T>>();
  let sending = 0;

  function launch(webhookId: string, queue: WebhookQueue<T>, item: T): void {
    sending++;
    queue.active++;
    void options.attempt(item).then((result) => {
      sending--;
      queue.active--;
      if (!queues.has(webhookId) && queue.waiting.length > 0) queues.set(webhookId, queue);
      options.done(webhookId, item, result);
      start();
    });
  }

  function start(): void {
    for (const [webhookId, queue] of queues) {
      if (sending >= concurrency) return;
      let launched = false;
      while (queue.active < perWebhook && queue.waiting.length > 0 && sending < concurrency) {
        launch(webhookId, queue, queue.waiting.shift()!);
        launched = true;
      }
      if (queue.active === 0 && queue.waiting.length === 0) queues.delete(webhookId);
      else if (launched) {
        // The next round starts with the other webhooks.
        queues.delete(webhookId);
        queues.set(webhookId, queue);
      }
    }
  }

  return {
    /** Queue a delivery for its webhook (call `start()` once a batch is queued). */
    push(webhookId: string, item: T): void {
      let queue = queues.get(webhookId);
      if (!queue) queues.set(webhookId, (queue = { active: 0, waiting: [] }));
      queue.waiting.push(item);
    },
    start,
    /** Take back every queued item not yet started (a stopping scheduler gives their claims back). */
    takeWaiting(): T[] {
      const taken: T[] = [];
      for (const [webhookId, queue] of queues) {
        taken.push(...queue.waiting.splice(0));
        if (queue.active === 0) queues.delete(webhookId);
      }
      return taken;
    },
  };
}
