import { describe, expect, it } from 'vitest';
import { newId } from '../../../src/engine/shared/ids.js';

describe('newId', () => {
  it('is prefixed, 26 characters of Crockford base32, unique and in creation order across many draws of randomness', () => {
    const start = Date.now() + 1000;
    // A new millisecond draws new randomness: 2,000 draws take several refills of the 4 KiB pool.
    const drawn = Array.from({ length: 2000 }, (_, i) => newId('evt', start + i));
    const sameMs = Array.from({ length: 50 }, () => newId('evt', start + 5000));
    const ids = [...drawn, ...sameMs];
    for (const id of ids) expect(id).toMatch(/^evt_[0-9a-hjkmnp-tv-z]{26}$/);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    // The random parts of different milliseconds are not a counter: no two of them share their 16 characters.
    expect(new Set(drawn.map((id) => id.slice(14))).size).toBe(drawn.length);
  });

  it('keeps sorting later when the clock goes back', () => {
    const a = newId('req', Date.now() + 10_000);
    const b = newId('req', Date.now());
    expect(b > a).toBe(true);
  });
});
