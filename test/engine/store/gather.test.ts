import { describe, expect, it } from 'vitest';
import { createGather } from '../../../src/engine/store/gather.js';
import { describeEngine } from '../../helpers/harness.js';

/** A batch runner that answers after `release()`, recording every batch it was given. */
function controlled() {
  const batches: number[][] = [];
  const pending: Array<() => void> = [];
  const run = (inputs: number[]) => {
    batches.push(inputs);
    return new Promise<number[]>((resolve) => pending.push(() => resolve(inputs.map((x) => x * 10))));
  };
  const release = async () => {
    pending.shift()!();
    await new Promise((r) => setImmediate(r));
  };
  return { batches, run, release };
}

describe('gathering calls into one round trip', () => {
  it('a lone call goes at once; calls made while it is on its way go together after it, each with its own result', async () => {
    const gather = createGather();
    const { batches, run, release } = controlled();
    const first = gather.one('k', 'a', 1, run);
    expect(batches).toEqual([[1]]);
    const rest = [2, 3, 4].map((x) => gather.one('k', 'a', x, run));
    expect(batches).toEqual([[1]]); // held while the first is on its way
    await release();
    expect(await first).toBe(10);
    expect(batches).toEqual([[1], [2, 3, 4]]);
    await release();
    expect(await Promise.all(rest)).toEqual([20, 30, 40]);
    // Nothing on its way any more: the next call goes at once again.
    void gather.one('k', 'a', 5, run);
    expect(batches).toEqual([[1], [2, 3, 4], [5]]);
  });

  it('keys and kinds do not wait for each other', async () => {
    const gather = createGather();
    const { batches, run } = controlled();
    void gather.one('k', 'a', 1, run);
    void gather.one('k', 'b', 2, run);
    void gather.one('other', 'a', 3, run);
    expect(batches).toEqual([[1], [2], [3]]);
  });

  it('a failed batch fails its own calls only; the calls gathered behind it still go', async () => {
    const gather = createGather();
    let n = 0;
    const run = async (inputs: number[]) => {
      if (n++ === 1) throw new Error('down');
      return inputs;
    };
    const first = gather.one('k', 'a', 1, run);
    const second = [gather.one('k', 'a', 2, run), gather.one('k', 'a', 3, run)];
    await first;
    const third = gather.one('k', 'a', 4, run);
    expect(await Promise.allSettled(second)).toEqual([
      { status: 'rejected', reason: new Error('down') },
      { status: 'rejected', reason: new Error('down') },
    ]);
    expect(await third).toBe(4);
  });
});

// On PostgreSQL the counts are gathered (one statement for the requests that arrive while one is on its way); SQLite
// counts in memory. Either way the budget is exact.
describeEngine('the rate limit under concurrent requests', (h) => {
  it('60 requests at once against a budget of 25: exactly 25 allowed, each told its own remaining budget', async () => {
    // Inside one clock minute (the windows are minutes).
    if (Date.now() % 60_000 > 58_000) await new Promise((r) => setTimeout(r, 60_000 - (Date.now() % 60_000) + 100));
    const states = await Promise.all(Array.from({ length: 60 }, () => h.engine.limits.consume('key_gathered', 25)));
    const allowed = states.filter((s) => s.allowed);
    expect(allowed).toHaveLength(25);
    expect(allowed.map((s) => s.remaining).sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i));
    expect(states.filter((s) => !s.allowed).every((s) => s.remaining === 0)).toBe(true);
    if (h.database === 'postgresql') {
      // The count kept in the shared table is every request, as one statement each would have left it.
      const row = await h.engine.db.one<{ count: number }>('SELECT count FROM rate_limit_window WHERE key_id = ?', [
        'key_gathered',
      ]);
      expect(Number(row!.count)).toBe(60);
    }
  });
});
