import type { SyncSql } from '../sql.js';

/** A small write waiting for its group's commit: its statements and the caller's promise. */
interface Pending {
  fn: (tx: SyncSql) => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** What a group needs of the connection: a transaction, and its statements. */
export interface GroupConnection {
  /** BEGIN IMMEDIATE: the transaction's statements, and its end. */
  begin(): { tx: SyncSql; commit(): void; rollback(): void };
  /** A statement inside the transaction (SAVEPOINT, RELEASE, ROLLBACK TO). */
  exec(sql: string): void;
  /** Whether a transaction is still open (some errors end it by themselves). */
  readonly inTransaction: boolean;
}

/** The most writes one commit takes; more wait for the next turn's. */
export const MAX_GROUP = 200;

/**
 * Group commit for SQLite's small writes (`Database.batch`: a change and its event). SQLite has one writer, and every
 * commit pays for BEGIN, COMMIT and writing each page it changed to the WAL. When several writes arrive in one turn of
 * the event loop (a server under load), they share one IMMEDIATE transaction, each in a savepoint of its own, and one
 * commit; each caller hears after that commit, so an acknowledged write is as durable as a lone one.
 *
 * - Idle, nothing waits: the first write of a turn commits at once, alone, as before grouping.
 * - Further writes in the same turn queue; at the turn's end (`setImmediate`) they commit together. While every turn
 *   brings writes, each turn's writes are one group; a turn without any ends the grouping.
 * - A write that throws rolls back to its savepoint: only its own change is undone, its neighbours commit.
 * - If an error ended the whole transaction (SQLite does so on I/O errors and the like), or the COMMIT failed (a
 *   deferred constraint), nothing of the group is kept and none of it was acknowledged: its writes run again, each
 *   alone, so that only the one at fault fails. A write's `fn` must therefore be safe to run again when its
 *   transaction did not commit (statements only, no other side effect).
 * - Writes keep their arrival order, so a contact's events are written in the order of its versions.
 *
 * `run` executes a flush when the connection is free (it may be held by a transaction that spans awaits).
 */
export class GroupCommit {
  readonly #queue: Pending[] = [];
  #grouping = false;

  constructor(
    private readonly connection: () => GroupConnection,
    private readonly run: (flush: () => void) => void,
  ) {}

  /** `fn` committed: at once if it is the first write of this turn, else with the turn's other writes. */
  write<T>(fn: (tx: SyncSql) => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ fn, resolve: resolve as (value: unknown) => void, reject });
      if (this.#grouping) return;
      this.#grouping = true;
      setImmediate(this.#endOfTurn);
      this.run(this.#flush);
    });
  }

  /** The turn ended: commit what queued in it, and keep grouping while writes keep coming. */
  readonly #endOfTurn = () => {
    if (this.#queue.length === 0) {
      this.#grouping = false;
      return;
    }
    setImmediate(this.#endOfTurn);
    this.run(this.#flush);
  };

  /** Commit the queue's first MAX_GROUP writes: alone if it is one, else as a group. */
  readonly #flush = () => {
    const group = this.#queue.splice(0, MAX_GROUP);
    if (group.length === 1) this.#alone(group[0]!);
    else if (group.length > 1) this.#together(group);
  };

  /** One write in a transaction of its own (no savepoint needed: the transaction is only its own). */
  #alone(w: Pending): void {
    let t: ReturnType<GroupConnection['begin']>;
    try {
      t = this.connection().begin();
    } catch (error) {
      w.reject(error);
      return;
    }
    let value: unknown;
    try {
      value = w.fn(t.tx);
      t.commit();
    } catch (error) {
      t.rollback();
      w.reject(error);
      return;
    }
    w.resolve(value);
  }

  /** Several writes in one transaction, a savepoint each, one commit; then each caller hears its own outcome. */
  #together(group: Pending[]): void {
    const c = this.connection();
    let t: ReturnType<GroupConnection['begin']>;
    try {
      t = c.begin();
    } catch (error) {
      for (const w of group) w.reject(error);
      return;
    }
    const outcomes: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
    try {
      for (const w of group) {
        c.exec('SAVEPOINT write');
        try {
          outcomes.push({ ok: true, value: w.fn(t.tx) });
          c.exec('RELEASE write');
        } catch (error) {
          if (!c.inTransaction) {
            // The error ended the transaction, and the neighbours' changes went with it: it fails, they run again.
            w.reject(error);
            for (const other of group) if (other !== w) this.#alone(other);
            return;
          }
          outcomes.push({ ok: false, error });
          c.exec('ROLLBACK TO write');
          c.exec('RELEASE write');
        }
      }
      t.commit();
    } catch {
      // The COMMIT failed (a deferred constraint, the disk): nothing of the group is kept. Each write runs again
      // alone, so that only the one at fault fails.
      t.rollback();
      for (const w of group) this.#alone(w);
      return;
    }
    for (let i = 0; i < group.length; i++) {
      const o = outcomes[i]!;
      if (o.ok) group[i]!.resolve(o.value);
      else group[i]!.reject(o.error);
    }
  }
}
