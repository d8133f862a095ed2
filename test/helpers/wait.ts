/**
 * How long a test waits for a condition before it fails naming what did not happen: not a budget (a condition that
 * holds comes as soon as it holds), only less than the test's own timeout (vitest.config.ts), so that the failure says
 * what was awaited rather than "timed out". Every wait of the helpers uses it.
 */
export const CONDITION_DEADLINE_MS = 100_000;

/** Wait until `check` holds, checking every 50 ms; fails with `what` after `timeoutMs`. */
export async function until(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs = CONDITION_DEADLINE_MS,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * `promise`, or a rejection naming `what` if it has not settled within `ms`: for answers that must come within a bound
 * (a request during a database outage), where waiting for ever is the defect.
 */
export function within<T>(what: string, ms: number, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
