import { describe, expect, it } from 'vitest';
import { Batcher } from '../../../src/engine/delivery/batcher.js';

// The recorder's batching alone, with a write the test controls: when a batch goes, how large it is, how many are
// written at once, and what a failed write does to its items.

function batcher(limits: { max: number; min: number; delayMs: number; writers: number }) {
  const batches: number[][] = [];
  const gates: Array<(err?: Error) => void> = [];
  let settled = 0;
  const b = new Batcher<number>(
    limits,
    (batch) => {
      batches.push(batch);
      return new Promise<void>((resolve, reject) => gates.push((err) => (err ? reject(err) : resolve())));
    },
    () => settled++,
  );
  return { b, batches, gates, settled: () => settled };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('Batcher', () => {
  it('writes as soon as min items wait, without the delay', async () => {
    const { b, batches, gates } = batcher({ max: 10, min: 3, delayMs: 60_000, writers: 1 });
    const written = [b.add(1), b.add(2)];
    await tick();
    expect(batches).toEqual([]);
    written.push(b.add(3));
    await tick();
    expect(batches).toEqual([[1, 2, 3]]);
    expect(b.busy).toBe(true);
    gates.shift()!();
    await Promise.all(written);
    expect(b.busy).toBe(false);
  });

  it('writes fewer than min once the delay after the first has passed', async () => {
    const { b, batches, gates } = batcher({ max: 10, min: 100, delayMs: 20, writers: 1 });
    const one = b.add(1);
    await tick();
    expect(batches).toEqual([]);
    await new Promise((r) => setTimeout(r, 40));
    expect(batches).toEqual([[1]]);
    gates.shift()!();
    await one;
  });

  it('writes at most max at a time, one writer after the other, and settles once drained', async () => {
    const { b, batches, gates, settled } = batcher({ max: 2, min: 1, delayMs: 0, writers: 1 });
    const all = [1, 2, 3, 4, 5].map((n) => b.add(n));
    await tick();
    expect(batches).toEqual([[1]]); // the first item went at once
    gates.shift()!();
    await tick();
    expect(batches).toEqual([[1], [2, 3]]);
    gates.shift()!();
    await tick();
    expect(batches).toEqual([[1], [2, 3], [4, 5]]);
    expect(settled()).toBe(0);
    gates.shift()!();
    await Promise.all(all);
    expect(settled()).toBe(1);
  });

  it('with two writers, two batches are written at once', async () => {
    const { b, batches } = batcher({ max: 2, min: 2, delayMs: 60_000, writers: 2 });
    void b.add(1);
    void b.add(2);
    void b.add(3);
    void b.add(4);
    await tick();
    expect(batches).toEqual([
      [1, 2],
      [3, 4],
    ]);
  });

  it('a failed write rejects the items of its batch only', async () => {
    const { b, gates } = batcher({ max: 1, min: 1, delayMs: 0, writers: 1 });
    const first = b.add(1);
    const second = b.add(2);
    await tick();
    gates.shift()!(new Error('disk full'));
    await expect(first).rejects.toThrow('disk full');
    await tick();
    gates.shift()!();
    await expect(second).resolves.toBeUndefined();
  });
});
