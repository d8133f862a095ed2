import type { MikroORM } from '@mikro-orm/core';
import type { Knex } from '@mikro-orm/knex';
import { MIGRATIONS } from './migrations/index.js';
import { ormOptions, parseDatabase, type DatabaseTarget } from './internal/orm-config.js';
import { createDatabase, type Database, type Dialect } from './internal/sql.js';
import { createBoardsService } from './services/boards.js';
import { createChangelogService } from './services/changelog.js';
import { createInteractionsService } from './services/interactions.js';
import { createPostsService } from './services/posts.js';
import { createTagsService } from './services/tags.js';
import { createContactsService } from './services/contacts.js';
import { createEventsService } from './services/events.js';
import { createKeysService } from './services/keys.js';
import { createRateLimiter } from './services/limits.js';
import { createOrganizationsService } from './services/organizations.js';

export interface EngineOptions {
  /** A SQLite file path, `:memory:`, or a `postgres://` URL. */
  database: string;
  /** Where time comes from; tests inject one. */
  clock?: () => Date;
}

/** Everything one workspace can do; every statement behind it names the workspace. */
export interface Workspace {
  readonly organizationId: string;
  readonly contacts: ReturnType<typeof createContactsService>;
  readonly boards: ReturnType<typeof createBoardsService>;
  readonly tags: ReturnType<typeof createTagsService>;
  readonly posts: ReturnType<typeof createPostsService>;
  /** What end-users do on public boards: post, vote, comment (with or without the notify-me opt-in). */
  readonly public: ReturnType<typeof createInteractionsService>;
  readonly changelog: ReturnType<typeof createChangelogService>;
  readonly events: ReturnType<typeof createEventsService>;
}

export interface Engine {
  readonly dialect: Dialect;
  readonly orm: MikroORM;
  readonly db: Database;
  readonly clock: () => Date;
  readonly organizations: ReturnType<typeof createOrganizationsService>;
  readonly keys: ReturnType<typeof createKeysService>;
  readonly limits: ReturnType<typeof createRateLimiter>;
  /** The operations of one workspace. The caller always names it. */
  workspace(organizationId: string): Workspace;
  /** Apply the checked-in migrations; returns the names applied now. */
  migrate(): Promise<string[]>;
  close(): Promise<void>;
}

/** @internal The ORM options the engine runs with, migrations included. */
export async function engineOrmOptions(target: DatabaseTarget) {
  const { Migrator } = await import('@mikro-orm/migrations');
  return ormOptions(target, {
    extensions: [Migrator],
    migrations: {
      migrationsList: MIGRATIONS[target.dialect],
      transactional: true,
      allOrNothing: true,
      snapshot: false,
      silent: true,
    },
  });
}

async function initOrm(target: DatabaseTarget): Promise<MikroORM> {
  const options = await engineOrmOptions(target);
  // Each driver is imported only when its database is used.
  if (target.dialect === 'sqlite') {
    const { MikroORM } = await import('@mikro-orm/sqlite');
    return (await MikroORM.init(options as never)) as unknown as MikroORM;
  }
  const { MikroORM } = await import('@mikro-orm/postgresql');
  return (await MikroORM.init(options as never)) as unknown as MikroORM;
}

/**
 * Open the database and build the engine. Call `migrate()` before first use of a new database.
 * @example
 * const engine = await createEngine({ database: './feedback.db' });
 * await engine.migrate();
 * const { contact } = await engine.workspace(orgId).contacts.identify({ externalUserId: 'u_1' });
 */
export async function createEngine(options: EngineOptions): Promise<Engine> {
  const target = parseDatabase(options.database);
  return createEngineOnOrm(await initOrm(target), target.dialect, options.clock);
}

/** @internal Build the engine on an ORM the caller initialized (the benchmark's driver comparison). */
export function createEngineOnOrm(orm: MikroORM, dialect: Dialect, clockOption?: () => Date): Engine {
  const clock = clockOption ?? (() => new Date());
  const knex = (orm.em as unknown as { getKnex(): Knex }).getKnex();
  const db = createDatabase(dialect, knex);
  const limits = createRateLimiter(clock);
  return {
    dialect,
    orm,
    db,
    clock,
    organizations: createOrganizationsService(orm, clock),
    keys: createKeysService(orm, db, clock),
    limits,
    workspace(organizationId: string): Workspace {
      if (typeof organizationId !== 'string' || organizationId.length === 0) {
        throw new TypeError('workspace(organizationId) needs the id of a workspace');
      }
      return {
        organizationId,
        contacts: createContactsService(db, organizationId, clock),
        boards: createBoardsService(orm, db, organizationId, clock),
        tags: createTagsService(db, organizationId, clock),
        posts: createPostsService(db, organizationId, clock),
        public: createInteractionsService(db, organizationId, clock),
        changelog: createChangelogService(db, organizationId, clock),
        events: createEventsService(db, organizationId),
      };
    },
    async migrate() {
      const migrator = orm.getMigrator();
      const applied = await migrator.up();
      return applied.map((m) => m.name);
    },
    close: () => orm.close(true),
  };
}
