/**
 * One holder at a time, the others served in arrival order: who has SQLite's one connection for a transaction (or
 * the ORM's borrowed turn). A statement outside a transaction runs at once while the turnstile is `free`, since it
 * cannot interleave with anything (libsql is synchronous).
 */
export class Turnstile {
  #held = false;
  readonly #waiting: Array<() => void> = [];

  /** Whether nobody holds it (a statement may run at once). */
  get free(): boolean {
    return !this.#held;
  }

  /** Run `fn` holding the turnstile: at once if it is free, else when the holders before have let go. */
  async run<T>(fn: () => T | Promise<T>): Promise<T> {
    await this.#enter();
    try {
      return await fn();
    } finally {
      this.#leave();
    }
  }

  #enter(): Promise<void> {
    if (!this.#held) {
      this.#held = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  #leave(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#held = false;
  }
}
