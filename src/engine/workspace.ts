import { createKeyActions, KEY_OPERATIONS, type KeyCache } from './access/index.js';
import { BOARD_OPERATIONS, createBoardsService } from './boards/index.js';
import { CHANGELOG_OPERATIONS, createChangelogActions, createChangelogService } from './changelog/index.js';
import { COMPANY_OPERATIONS, createCompaniesService } from './companies/index.js';
import { CONTACT_OPERATIONS, createContactActions, createContactsService } from './contacts/index.js';
import { createEventsService } from './events/index.js';
import { createImports } from './imports/index.js';
import {
  createIntegrationActions,
  createIntegrationsService,
  INTEGRATION_OPERATIONS,
  type IntegrationsParts,
} from './integrations/index.js';
import type { Actor } from './members/index.js';
import { createTeamService, type ResolveTxt } from './members/index.js';
import { createNotificationsService } from './notifications/index.js';
import { updateSettings, type WorkspaceSettings } from './organizations/index.js';
import { createParticipation, createPortalSecretActions } from './participation/index.js';
import { createPortalReader } from './portal/index.js';
import {
  createPostActions,
  createPostsService,
  createTagsService,
  POST_OPERATIONS,
  TAG_OPERATIONS,
} from './posts/index.js';
import { createPrivacyActions, createPrivacyService } from './privacy/index.js';
import type { Embeddings } from './search/index.js';
import type { SecretBox } from './secrets/index.js';
import type { Bindings } from './shared/index.js';
import type { Database } from './store/index.js';
import { createTriageReader, TRIAGE_OPERATIONS } from './triage/index.js';
import {
  createWebhookActions,
  createWebhooksService,
  WEBHOOK_OPERATIONS,
  type WebhookConfig,
} from './webhooks/index.js';

/** What every workspace's services are built with: the engine's context and the workspace's id. */
type ServiceContext = EngineContext & { organizationId: string };

/** A concept as the workspace holds it: its service (built on first use), and the operations of the contract it does. */
interface Concept<Service, Operations extends Bindings<Service>> {
  service?: (ctx: ServiceContext) => Service;
  operations: Operations;
}
/** A concept with a service on the workspace, and the operations it does with that service. */
const concept = <Service, Operations extends Bindings<Service> = Record<never, never>>(
  service: (ctx: ServiceContext) => Service,
  operations: Operations = {} as Operations,
): Concept<Service, Operations> & { service: (ctx: ServiceContext) => Service } => ({ service, operations });

/**
 * The workspace's concepts, by the name its services go by (`workspace.contacts`): each concept's service and the
 * operations of the contract it does. A new concept is a line here; `Workspace` and the operations' bindings
 * (operations.ts) follow from it.
 */
export const CONCEPTS = {
  contacts: concept(createContactsService, CONTACT_OPERATIONS),
  /** The paying accounts contacts belong to (identify's `companies`, and their own operations). */
  companies: concept(createCompaniesService, COMPANY_OPERATIONS),
  boards: concept(createBoardsService, BOARD_OPERATIONS),
  tags: concept(createTagsService, TAG_OPERATIONS),
  posts: concept(createPostsService, POST_OPERATIONS),
  changelog: concept(createChangelogService, CHANGELOG_OPERATIONS),
  /** What the public portal reads: public boards, their shown posts and comments, the roadmap, the changelog. */
  portal: concept(createPortalReader),
  /** What end-users do on public boards (post, vote, comment), and how they take part on the portal: its token secret, sign-in, codes, sessions. */
  participation: concept(createParticipation),
  events: concept(createEventsService),
  webhooks: concept(createWebhooksService, WEBHOOK_OPERATIONS),
  /** Notification mail: subscriptions the workspace makes, and what a recipient gets, changes and unsubscribes from. */
  notifications: concept(createNotificationsService),
  /** Data-subject requests: everything held about a person (`export`), and their erasure (`erase`). */
  privacy: concept(createPrivacyService),
  /** The console's team: members and their roles, invitations, and the audit log. */
  team: concept(createTeamService),
  /** A team's history brought in from the tool it leaves (`feedback-service import canny|fider`). */
  imports: concept(createImports),
  /** The console's posts page: every post of the workspace, filtered and sorted as the team works. */
  triage: concept(createTriageReader, TRIAGE_OPERATIONS),
  /** Connections to Linear, GitHub and Slack, and a post's linked issues. */
  integrations: concept(createIntegrationsService, INTEGRATION_OPERATIONS),
  /** API keys: `whoami` is answered by the caller's key, with no service of the workspace. */
  keys: { operations: KEY_OPERATIONS } satisfies Concept<undefined, typeof KEY_OPERATIONS>,
};
type Concepts = typeof CONCEPTS;

/** The workspace's services, one per concept that has one, built on first use. */
export type WorkspaceServices = {
  readonly [K in keyof Concepts as Concepts[K] extends { service: unknown } ? K : never]: Concepts[K] extends {
    service: (ctx: ServiceContext) => infer Service;
  }
    ? Service
    : never;
};

/** Everything one workspace can do; every statement behind it names the workspace. */
export type Workspace = WorkspaceServices & {
  readonly organizationId: string;
  /**
   * What one team member (or the command line) does: each action is its concept's (settings, keys, the portal secret,
   * webhooks, contacts by hand and their data requests, the changelog, posts), checked against the actor's role and
   * audited in its transaction.
   */
  as(actor: Actor): WorkspaceActions;
};

/** A workspace's actions as one team member: each concept's own, put together. */
export interface WorkspaceActions {
  updateSettings(change: WorkspaceSettings): ReturnType<typeof updateSettings>;
  keys: ReturnType<typeof createKeyActions>;
  portalSecret: ReturnType<typeof createPortalSecretActions>;
  webhooks: ReturnType<typeof createWebhookActions>;
  contacts: ReturnType<typeof createContactActions> & ReturnType<typeof createPrivacyActions>;
  changelog: ReturnType<typeof createChangelogActions>;
  posts: ReturnType<typeof createPostActions>;
  integrations: ReturnType<typeof createIntegrationActions>;
}

/** What every workspace's services run with: the engine's database, clock and the parts some of them need. */
export interface EngineContext {
  db: Database;
  clock: () => Date;
  secrets: SecretBox;
  webhooks: WebhookConfig;
  /** This server's address as people reach it, for links in mail. */
  publicUrl: () => string | undefined;
  /** The DNS TXT lookup that verifies a single sign-on domain. */
  resolveTxt: ResolveTxt;
  /** The authenticated API keys kept in process: a change of keys or settings clears it. */
  keyCache: KeyCache;
  /** The embeddings endpoint, when the engine has one (possible duplicates by meaning). */
  embeddings?: Embeddings;
  /** Linear, GitHub and Slack: the server's configuration, the outbound transport, the sealing key. */
  integrations: IntegrationsParts;
}

/**
 * One workspace's services, each built on first use and kept: a request builds none (identify touches `contacts` only,
 * and that was built by the first one). Every service is `(context, input)` functions over one context object.
 */
class LazyWorkspace {
  readonly #ctx: ServiceContext;
  readonly #built = new Map<string, unknown>();
  constructor(
    readonly organizationId: string,
    engine: EngineContext,
  ) {
    this.#ctx = { ...engine, organizationId };
  }
  #service(name: string, build: (ctx: ServiceContext) => unknown): unknown {
    let service = this.#built.get(name);
    if (service === undefined) this.#built.set(name, (service = build(this.#ctx)));
    return service;
  }
  static {
    // A getter per concept with a service: `workspace.contacts`.
    for (const [name, { service }] of Object.entries(CONCEPTS) as [
      string,
      { service?: (ctx: ServiceContext) => unknown },
    ][])
      if (service !== undefined)
        Object.defineProperty(LazyWorkspace.prototype, name, {
          get(this: LazyWorkspace) {
            return this.#service(name, service);
          },
        });
  }
  as(actor: Actor): WorkspaceActions {
    const ctx = this.#ctx;
    return {
      updateSettings: (change) => updateSettings(ctx, actor, change),
      keys: createKeyActions(ctx, actor),
      portalSecret: createPortalSecretActions(ctx, actor),
      webhooks: createWebhookActions(ctx, actor),
      contacts: { ...createContactActions(ctx, actor), ...createPrivacyActions(ctx, actor) },
      changelog: createChangelogActions(ctx, actor),
      posts: createPostActions(ctx, actor),
      integrations: createIntegrationActions(ctx, actor),
    };
  }
}

/** Workspaces kept in memory at most (the least recently used goes first); each is a few small objects. */
const KEPT_WORKSPACES = 1000;

/** `engine.workspace(id)`: the workspace's services, built once per workspace and kept (LRU). */
export function createWorkspaces(engine: EngineContext): (organizationId: string) => Workspace {
  const kept = new Map<string, Workspace>();
  return (organizationId) => {
    let ws = kept.get(organizationId);
    if (ws !== undefined) {
      // Most recently used last: a Map iterates in insertion order, so the first key is the one to drop.
      kept.delete(organizationId);
      kept.set(organizationId, ws);
      return ws;
    }
    if (typeof organizationId !== 'string' || organizationId.length === 0)
      throw new TypeError('workspace(organizationId) needs the id of a workspace');
    ws = new LazyWorkspace(organizationId, engine) as unknown as Workspace;
    if (kept.size >= KEPT_WORKSPACES) kept.delete(kept.keys().next().value!);
    kept.set(organizationId, ws);
    return ws;
  };
}
