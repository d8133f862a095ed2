import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** How often the worker copies the WAL into the database file. */
const INTERVAL_MS = 50;
/**
 * The writing connection's own automatic checkpoint, in WAL pages (4 KiB each): a safety net that bounds the WAL
 * (200 MiB) if the worker stops. Under ordinary load the worker catches up and the next write restarts the WAL from
 * its beginning; only under sustained saturation (writes never pausing) does the WAL reach this and the writing
 * connection checkpoint the remainder itself. Measured here at 4,000 identifies/s: at 10,000 pages that happened
 * three times a second and cost 15 % of the throughput.
 */
export const SAFETY_NET_PAGES = 50_000;
/** After the WAL restarts, its file is cut back to this (bytes), so a burst does not keep its disk space. */
export const WAL_SIZE_LIMIT = 64 * 1024 * 1024;

// The worker is plain CommonJS evaluated from a string, so the same code runs from src/ and from the bundle.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.libsql);
const db = new Database(workerData.file);
// Never wait for a lock: the connection that writes must not be kept waiting by this one.
db.exec('PRAGMA busy_timeout = 0');
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
const timer = setInterval(() => {
  try {
    checkpoint.get([]);
  } catch (err) {
    if (!/busy|locked/i.test(String(err && err.message))) parentPort.postMessage({ error: String(err && err.message) });
  }
}, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.postMessage({ stopped: true });
});
`;

export interface Checkpointer {
  /** Stop checkpointing and close the worker's connection (so the last connection to close can remove the WAL). */
  stop(): Promise<void>;
}

/**
 * WAL checkpoints in a worker thread on its own connection. A checkpoint fsyncs the WAL and the database file; on
 * the connection that writes it runs every 1,000 pages, inside a COMMIT, on the event loop, and costs about a
 * third of an identify's write (docs/benchmarks.md). Here PASSIVE checkpoints copy what they can without taking any
 * lock a writer needs, and the fsyncs happen off the event loop. Durability is unchanged (`synchronous = NORMAL`).
 */
export function startCheckpointer(file: string, log: (message: string) => void): Checkpointer {
  const libsql = createRequire(import.meta.url).resolve('libsql');
  // No inherited flags: `node --input-type=module -e ...` would otherwise make the worker's CommonJS an ES module.
  const worker = new Worker(WORKER, {
    eval: true,
    execArgv: [],
    workerData: { file, libsql, intervalMs: INTERVAL_MS },
  });
  worker.unref();
  let reported = false;
  worker.on('message', (message: { error?: string }) => {
    if (message.error && !reported) {
      reported = true;
      log(
        `[feedback-service] background WAL checkpoint failed (the writing connection checkpoints by itself): ${message.error}`,
      );
    }
  });
  worker.on('error', (err) => log(`[feedback-service] the WAL checkpoint worker stopped: ${err.message}`));
  let exited = false;
  worker.once('exit', () => (exited = true));
  return {
    async stop() {
      // A worker that already ended (an error) has nothing to stop: waiting for its exit would wait forever.
      if (exited) return;
      const stopped = new Promise<void>((resolve) => {
        worker.once('message', () => resolve());
        worker.once('exit', () => resolve());
      });
      worker.postMessage('stop');
      await stopped;
      await worker.terminate();
    },
  };
}
