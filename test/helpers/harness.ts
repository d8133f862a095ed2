import type { H3 } from 'h3';
import { afterAll, beforeAll, describe } from 'vitest';
import {
  type CreateOrganizationInput,
  createEngine,
  type Engine,
  type EngineOptions,
  FeedbackError,
  type OrganizationInfo,
} from '../../src/engine/index.js';
import { createApp, type NodeServer, serveNode } from '../../src/h3/index.js';
import { mcpEndpoint } from '../../src/mcp/index.js';
import { createTestDatabase, POSTGRES_REQUIRED, postgresReachable, type TestDatabase } from './databases.js';

const POSTGRES_AVAILABLE = await postgresReachable();
if (!POSTGRES_AVAILABLE && POSTGRES_REQUIRED) {
  throw new Error('PostgreSQL is required here (CI=true or REQUIRE_POSTGRES=1) but 127.0.0.1:5432 is not reachable');
}
if (!POSTGRES_AVAILABLE) {
  console.warn(
    '\n[feedback-service tests] PostgreSQL is not reachable at 127.0.0.1:5432: the PostgreSQL half of the suites is SKIPPED.\n',
  );
}

export type Transport = 'fetch' | 'socket';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface RequestOptions {
  body?: unknown;
  /** A raw body sent as is (for malformed JSON and size tests). */
  rawBody?: string | Uint8Array;
  key?: string | null;
  headers?: Record<string, string>;
}

export interface SeededWorkspace {
  org: OrganizationInfo;
  /** A read:write key. */
  key: string;
  keyId: string;
  readKey: string;
}

export interface Harness {
  readonly database: 'sqlite' | 'postgresql';
  readonly transport: Transport;
  readonly engine: Engine;
  readonly app: H3;
  /** Send one request through the transport under test. */
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  /** A new workspace with a read:write and a read key. */
  seed(input?: Partial<CreateOrganizationInput>): Promise<SeededWorkspace>;
  /** Move the injected clock forward. */
  advance(ms: number): void;
  /** The listening server's URL (socket transport only). */
  readonly baseUrl: string;
}

export interface EngineHarness {
  readonly database: 'sqlite' | 'postgresql';
  /** The migrated engine of this suite. */
  readonly engine: Engine;
  /** The database's location, for a second engine on it (another process, as far as the first can tell). */
  readonly url: string;
  /** Move the engine's clock forward (unless the suite gave a clock of its own). */
  advance(ms: number): void;
}

/**
 * Move the engine's clock to one second into the next clock minute: rate limits count per clock minute, so a test
 * that counts requests would otherwise fail whenever its requests straddle the minute's end.
 */
export function intoFreshMinute(h: { engine: Engine; advance(ms: number): void }): void {
  const now = h.engine.clock().getTime();
  h.advance(60_000 - (now % 60_000) + 1_000);
}

/** The FeedbackError a call is refused with (its code and message); anything else fails the test. */
export async function refusal(p: Promise<unknown>): Promise<{ code: string; message: string }> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(err instanceof FeedbackError)) throw new Error(`expected a FeedbackError, got ${String(err)}`);
  return { code: err.code, message: err.message };
}

/** The payloads of a workspace's events, oldest first. */
export async function eventPayloads(h: { engine: Engine }, orgId: string): Promise<any[]> {
  return (await h.engine.workspace(orgId).events.list()).map((e) => e.payload as any);
}

/** Run one engine-level suite on every database: a fresh database and a migrated engine for each. */
export function describeEngine(
  name: string,
  suite: (e: EngineHarness) => void,
  options: { engine?: Omit<EngineOptions, 'database' | 'clock'>; clock?: () => Date; scheduler?: boolean } = {},
): void {
  for (const database of ['sqlite', 'postgresql'] as const) {
    describe.skipIf(database === 'postgresql' && !POSTGRES_AVAILABLE)(`${name} [${database}]`, () => {
      let db: TestDatabase | undefined;
      let offset = 0;
      const state = {} as { engine: Engine };
      beforeAll(async () => {
        db = await createTestDatabase(database);
        state.engine = await createEngine({
          log: () => {},
          ...options.engine,
          database: db.url,
          clock: options.clock ?? (() => new Date(Date.now() + offset)),
        });
        await state.engine.migrate();
        // The scheduler sends what the suite's changes write to the outbox (sign-in codes, invitations, notifications).
        if (options.scheduler) await state.engine.scheduler.start();
      });
      afterAll(async () => {
        await state.engine?.close();
        await db?.drop();
      });
      suite({
        database,
        get engine() {
          return state.engine;
        },
        get url() {
          return db!.url;
        },
        advance(ms) {
          offset += ms;
        },
      });
    });
  }
}

/**
 * Run one HTTP suite against every database and both transports: `app.fetch` in-process
 * and a real listening server (as h3's own describeMatrix does).
 */
export function describeMatrix(
  name: string,
  suite: (h: Harness) => void,
  options: { transports?: Transport[]; engine?: Omit<EngineOptions, 'database' | 'clock'> } = {},
): void {
  for (const database of ['sqlite', 'postgresql'] as const) {
    for (const transport of options.transports ?? (['fetch', 'socket'] as const)) {
      describe.skipIf(database === 'postgresql' && !POSTGRES_AVAILABLE)(`${name} [${database}, ${transport}]`, () => {
        let db: TestDatabase | undefined;
        let server: NodeServer | undefined;
        let offset = 0;
        const state = {} as { engine: Engine; app: H3 };
        const h: Harness = {
          database,
          transport,
          get engine() {
            return state.engine;
          },
          get app() {
            return state.app;
          },
          get baseUrl() {
            if (!server) throw new Error('baseUrl needs the socket transport');
            return server.url;
          },
          async request(method, path, opts = {}) {
            const headers = new Headers(opts.headers);
            if (opts.key !== null) headers.set('authorization', `Bearer ${opts.key ?? ''}`);
            let body: BodyInit | undefined;
            if (opts.rawBody !== undefined) body = opts.rawBody as BodyInit;
            else if (opts.body !== undefined) {
              body = JSON.stringify(opts.body);
              headers.set('content-type', 'application/json');
            }
            const init: RequestInit = { method, headers, body };
            const res =
              transport === 'fetch'
                ? await state.app.fetch(new Request(`http://localhost${path}`, init))
                : await fetch(`${server!.url}${path}`, init);
            const text = await res.text();
            return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
          },
          async seed(input = {}) {
            const org = await state.engine.organizations.create({ name: 'Test workspace', plan: 'paid', ...input });
            const key = await state.engine.keys.create(org.id, 'read:write');
            const readKey = await state.engine.keys.create(org.id, 'read');
            return { org, key: key.key, keyId: key.id, readKey: readKey.key };
          },
          advance(ms) {
            offset += ms;
          },
        };
        beforeAll(async () => {
          db = await createTestDatabase(database);
          state.engine = await createEngine({
            ...options.engine,
            database: db.url,
            clock: () => new Date(Date.now() + offset),
          });
          await state.engine.migrate();
          state.app = createApp({ engine: state.engine, logError: () => {}, endpoints: [mcpEndpoint(state.engine)] });
          if (transport === 'socket') server = await serveNode(state.app, { port: 0 });
        });
        afterAll(async () => {
          await server?.close();
          await state.engine?.close();
          await db?.drop();
        });
        suite(h);
      });
    }
  }
}
