import { randomFillSync } from 'node:crypto';

const CROCKFORD = '0123456789abcdefghjkmnpqrstvwxyz';
const RANDOM_BYTES = 10;

/**
 * Randomness drawn 4 KiB at a time: a draw from the operating system costs about the same whatever its size (7 us
 * for 10 bytes on the benchmark machine), and ids are made on every request. Ids are not secrets (tokens and keys draw
 * their own).
 */
const pool = new Uint8Array(4096);
let pooled = 0;
function drawRandom(): Uint8Array {
  if (pooled < RANDOM_BYTES) {
    randomFillSync(pool);
    pooled = pool.length;
  }
  pooled -= RANDOM_BYTES;
  return pool.slice(pooled, pooled + RANDOM_BYTES);
}

let lastTime = -1;
let lastRandom: Uint8Array = new Uint8Array(RANDOM_BYTES);

/** Add one to a big-endian byte string (wrapping is 2^80 ids in one millisecond away). */
function increment(bytes: Uint8Array): Uint8Array {
  const out = Uint8Array.from(bytes);
  for (let i = out.length - 1; i >= 0; i--) {
    if (out[i] !== 255) {
      out[i]!++;
      return out;
    }
    out[i] = 0;
  }
  return out;
}

/**
 * A prefixed, time-sortable id: `<prefix>_` + 10 characters of millisecond time and 16 of randomness
 * (Crockford base32, lower-case). Monotonic within the process: an id made in the same millisecond as
 * the previous one (or with a clock that went back) takes the previous time and randomness plus one, so
 * ids made later always sort later, which keeps `(created_at, id)` orderings in write order.
 */
export function newId(prefix: string, now: number = Date.now()): string {
  let time = now;
  let random: Uint8Array;
  if (now <= lastTime) {
    time = lastTime;
    random = increment(lastRandom);
  } else {
    random = drawRandom();
  }
  lastTime = time;
  lastRandom = random;
  let timePart = '';
  for (let i = 0, t = time; i < 10; i++, t = Math.floor(t / 32)) timePart = CROCKFORD[t % 32] + timePart;
  let randomPart = '';
  let acc = 0;
  let bits = 0;
  for (const b of random) {
    acc = ((acc << 8) | b) & 0xffff;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      randomPart += CROCKFORD[(acc >> bits) & 31];
    }
  }
  return `${prefix}_${timePart}${randomPart}`;
}
