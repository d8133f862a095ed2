import { createKeyActions, type KeyCache } from './access/index.js';
import { type BoardsService, createBoardsService } from './boards/index.js';
import { type ChangelogService, createChangelogActions, createChangelogService } from './changelog/index.js';
import { type ContactsService, createContactActions, createContactsService } from './contacts/index.js';
import { createEventsService, type EventsService } from './events/index.js';
import type { Actor } from './members/index.js';
import { createTeamService, type ResolveTxt, type TeamService } from './members/index.js';
import { createNotificationsService, type NotificationsService } from './notifications/index.js';
import { updateSettings, type WorkspaceSettings } from './organizations/index.js';
import { createParticipation, createPortalSecretActions, type Participation } from './participation/index.js';
import { createPortalReader, type PortalReader } from './portal/index.js';
import {
  createPostActions,
  createPostsService,
  createTagsService,
  type PostsService,
  type TagsService,
} from './posts/index.js';
import { createPrivacyActions, createPrivacyService, type PrivacyService } from './privacy/index.js';
import type { SecretBox } from './secrets/index.js';
import type { Database } from './store/index.js';
import { createTriageReader, type TriageReader } from './triage/index.js';
import {
  createWebhookActions,
  createWebhooksService,
  type WebhookConfig,
  type WebhooksService,
} from './webhooks/index.js';

/** Everything one workspace can do; every statement behind it names the workspace. */
export interface Workspace {
  readonly organizationId: string;
  readonly contacts: ContactsService;
  readonly boards: BoardsService;
  readonly tags: TagsService;
  readonly posts: PostsService;
  readonly changelog: ChangelogService;
  /** What the public portal reads: public boards, their shown posts and comments, the roadmap, the changelog. */
  readonly portal: PortalReader;
  /** What end-users do on public boards (post, vote, comment), and how they take part on the portal: its token secret, sign-in, codes, sessions. */
  readonly participation: Participation;
  readonly events: EventsService;
  readonly webhooks: WebhooksService;
  /** Notification mail: subscriptions the workspace makes, and what a recipient gets, changes and unsubscribes from. */
  readonly notifications: NotificationsService;
  /** Data-subject requests: everything held about a person (`export`), and their erasure (`erase`). */
  readonly privacy: PrivacyService;
  /** The console's team: members and their roles, invitations, and the audit log. */
  readonly team: TeamService;
  /** The console's posts page: every post of the workspace, filtered and sorted as the team works. */
  readonly triage: TriageReader;
  /**
   * What one team member (or the command line) does: each action is its concept's (settings, keys, the portal secret,
   * webhooks, contacts by hand and their data requests, the changelog, posts), checked against the actor's role and
   * audited in its transaction.
   */
  as(actor: Actor): WorkspaceActions;
}

/** A workspace's actions as one team member: each concept's own, put together. */
export interface WorkspaceActions {
  updateSettings(change: WorkspaceSettings): ReturnType<typeof updateSettings>;
  keys: ReturnType<typeof createKeyActions>;
  portalSecret: ReturnType<typeof createPortalSecretActions>;
  webhooks: ReturnType<typeof createWebhookActions>;
  contacts: ReturnType<typeof createContactActions> & ReturnType<typeof createPrivacyActions>;
  changelog: ReturnType<typeof createChangelogActions>;
  posts: ReturnType<typeof createPostActions>;
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
}

/**
 * One workspace's services, each built on first use and kept: a request builds none (identify touches `contacts` only,
 * and that was built by the first one). Every service is `(context, input)` functions over one context object.
 */
class LazyWorkspace implements Workspace {
  readonly #ctx: EngineContext & { organizationId: string };
  readonly #built = new Map<string, unknown>();
  constructor(
    readonly organizationId: string,
    engine: EngineContext,
  ) {
    this.#ctx = { ...engine, organizationId };
  }
  #once<T>(name: string, build: () => T): T {
    let service = this.#built.get(name) as T | undefined;
    if (service === undefined) this.#built.set(name, (service = build()));
    return service;
  }
  get contacts() {
    return this.#once('contacts', () => createContactsService(this.#ctx));
  }
  get boards() {
    return this.#once('boards', () => createBoardsService(this.#ctx));
  }
  get tags() {
    return this.#once('tags', () => createTagsService(this.#ctx));
  }
  get posts() {
    return this.#once('posts', () => createPostsService(this.#ctx));
  }
  get changelog() {
    return this.#once('changelog', () => createChangelogService(this.#ctx));
  }
  get portal() {
    return this.#once('portal', () => createPortalReader(this.#ctx));
  }
  get participation() {
    return this.#once('participation', () => createParticipation(this.#ctx));
  }
  get events() {
    return this.#once('events', () => createEventsService(this.#ctx));
  }
  get webhooks() {
    return this.#once('webhooks', () => createWebhooksService(this.#ctx));
  }
  get notifications() {
    return this.#once('notifications', () => createNotificationsService(this.#ctx));
  }
  get privacy() {
    return this.#once('privacy', () => createPrivacyService(this.#ctx));
  }
  get team() {
    return this.#once('team', () => createTeamService(this.#ctx));
  }
  get triage() {
    return this.#once('triage', () => createTriageReader(this.#ctx));
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
    ws = new LazyWorkspace(organizationId, engine);
    if (kept.size >= KEPT_WORKSPACES) kept.delete(kept.keys().next().value!);
    kept.set(organizationId, ws);
    return ws;
  };
}
