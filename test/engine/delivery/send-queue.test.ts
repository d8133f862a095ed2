import { describe, expect, it } from 'vitest';
import { SendQueue } from '../../../src/engine/delivery/send-queue.js';

// The send queue alone, with sends that finish when the test says: how many run at once, overall and per key, in
// which order keys take turns, and what a stop takes back.

function queue(concurrency: number, perKey: number) {
  const started: string[] = [];
  const finished: Array<[string, string, string]> = [];
  const pending = new Map<string, () => void>();
  const q = new SendQueue<string, string>({
    concurrency,
    perKey,
    attempt: (item) => {
      started.push(item);
      return new Promise((resolve) => pending.set(item, () => resolve(`sent ${item}`)));
    },
    done: (key, item, result) => finished.push([key, item, result]),
  });
  const finish = async (item: string) => {
    pending.get(item)!();
    pending.delete(item);
    await new Promise((r) => setImmediate(r));
  };
  return { q, started, finished, finish };
}

describe('SendQueue', () => {
  it('starts at most perKey per key and concurrency overall, keys in rotation', () => {
    const { q, started } = queue(3, 2);
    for (const item of ['a1', 'a2', 'a3', 'a4']) q.push('a', item);
    for (const item of ['b1', 'b2']) q.push('b', item);
    q.start();
    expect(started).toEqual(['a1', 'a2', 'b1']);
    expect(q.sending).toBe(3);
  });

  it('frees a slot when a send ends, records its outcome, and gives the next turn to the other keys', async () => {
    const { q, started, finished, finish } = queue(2, 1);
    for (const item of ['a1', 'a2']) q.push('a', item);
    for (const item of ['b1', 'b2']) q.push('b', item);
    q.push('c', 'c1');
    q.start();
    expect(started).toEqual(['a1', 'b1']);
    await finish('a1');
    expect(finished).toEqual([['a', 'a1', 'sent a1']]);
    expect(started).toEqual(['a1', 'b1', 'c1']); // c waited longest; a goes to the back
    await finish('b1');
    expect(started).toEqual(['a1', 'b1', 'c1', 'a2']);
    await finish('c1');
    expect(started.at(-1)).toBe('b2');
    expect(q.sending).toBe(2);
  });

  it('a slow key holds at most perKey slots while the others go on', async () => {
    const { q, started, finish } = queue(4, 2);
    for (let i = 1; i <= 10; i++) q.push('slow', `s${i}`);
    for (let i = 1; i <= 4; i++) q.push('fast', `f${i}`);
    q.start();
    expect(started).toEqual(['s1', 's2', 'f1', 'f2']);
    for (const item of ['f1', 'f2', 'f3', 'f4']) await finish(item);
    expect(started.filter((s) => s.startsWith('s'))).toEqual(['s1', 's2']);
    expect(started.filter((s) => s.startsWith('f'))).toEqual(['f1', 'f2', 'f3', 'f4']);
  });

  it('takeWaiting gives back what has not started, and leaves what is in flight to finish', async () => {
    const { q, started, finished, finish } = queue(1, 1);
    for (const item of ['a1', 'a2', 'a3']) q.push('a', item);
    q.push('b', 'b1');
    q.start();
    expect(q.takeWaiting().sort()).toEqual(['a2', 'a3', 'b1']);
    await finish('a1');
    expect(finished.map(([, item]) => item)).toEqual(['a1']);
    expect(started).toEqual(['a1']);
    expect(q.sending).toBe(0);
  });
});
