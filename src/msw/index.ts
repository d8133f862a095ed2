import { type HttpHandler, http } from 'msw';
import type { StoredEvent } from '../engine/index.js';
import { createEngine, type Engine, type Plan } from '../engine/index.js';
import { createApp } from '../h3/index.js';
import { mcpEndpoint } from '../mcp/http.js';
import type { Board } from '../schemas/boards.js';
import type { Contact, CreateContactBody } from '../schemas/contacts.js';

export interface MockServiceOptions {
  /** The origin the handlers answer for (`https://feedback.test`); point your client's `baseUrl` at it. */
  baseUrl?: string;
  /** The engine's clock, for tests that move time. */
  clock?: () => Date;
}

export interface SeedInput {
  plan?: Plan;
  /** A number caps contacts (the free plan's 1,000 by default on `free`); null is unlimited. */
  contactCap?: number | null;
  rateLimit?: number;
  /** Board names to create. */
  boards?: string[];
  /** Contacts to create, as `POST /v1/contacts` takes them. */
  contacts?: CreateContactBody[];
}

export interface SeededWorkspace {
  organizationId: string;
  /** A read:write key. */
  apiKey: string;
  /** A read key. */
  readKey: string;
  boards: Board[];
  contacts: Contact[];
}

/**
 * A real feedback service for your tests, behind MSW: the handlers hand every intercepted request for
 * `baseUrl` to the real h3 app on an in-memory SQLite engine, so validation errors, cursors and counts are the
 * server's own.
 * @example
 * const feedback = await createMockFeedbackService();
 * const server = setupServer(...feedback.handlers);
 * const { apiKey } = await feedback.seed({ contacts: [{ externalUserId: 'u1' }] });
 * const client = createClient({ apiKey, baseUrl: feedback.baseUrl });
 */
export async function createMockFeedbackService(options: MockServiceOptions = {}) {
  const baseUrl = (options.baseUrl ?? 'https://feedback.test').replace(/\/+$/, '');
  const engine: Engine = await createEngine({ database: ':memory:', clock: options.clock, log: () => {} });
  await engine.migrate();
  const app = createApp({ engine, logError: () => {}, endpoints: [mcpEndpoint(engine)] });

  const handlers: HttpHandler[] = [http.all(`${baseUrl}/*`, ({ request }) => app.fetch(request))];

  return {
    baseUrl,
    handlers,
    /** The engine behind the handlers, for anything the helpers do not cover. */
    engine,

    /** A workspace (paid plan unless told) with a read:write and a read key, and optional boards and contacts. */
    async seed(input: SeedInput = {}): Promise<SeededWorkspace> {
      const org = await engine.organizations.create({
        name: 'Test workspace',
        plan: input.plan ?? 'paid',
        ...(input.contactCap !== undefined ? { contactCap: input.contactCap } : {}),
        ...(input.rateLimit !== undefined ? { rateLimit: input.rateLimit } : {}),
      });
      const [key, readKey] = [await engine.keys.create(org.id, 'read:write'), await engine.keys.create(org.id, 'read')];
      const workspace = engine.workspace(org.id);
      const boards: Board[] = [];
      for (const name of input.boards ?? []) boards.push(await workspace.boards.create({ name }));
      const contacts: Contact[] = [];
      for (const contact of input.contacts ?? []) contacts.push(await workspace.contacts.create(contact));
      return { organizationId: org.id, apiKey: key.key, readKey: readKey.key, boards, contacts };
    },

    /** The events a workspace's changes emitted, oldest first (what its webhooks would receive). */
    events(organizationId: string): Promise<StoredEvent[]> {
      return engine.workspace(organizationId).events.list();
    },

    /** Forget every workspace and everything in it (between tests). */
    async reset(): Promise<void> {
      for (const org of await engine.organizations.list()) await engine.organizations.delete(org.id);
    },

    close: () => engine.close(),
  };
}
export type MockFeedbackService = Awaited<ReturnType<typeof createMockFeedbackService>>;
