import {
  CONTACT_TRAIT_FIELDS,
  MAX_METADATA_KEYS,
  createContactBodySchema,
  identifyContactBodySchema,
  listContactsQuerySchema,
  updateContactBodySchema,
  type ConsentBasis,
  type Contact,
  type ContactDetail,
  type ContactListItem,
  type ContactSort,
  type ContactSource,
  type ContactTraitField,
  type DeletedContact,
  type ListContactsQueryInput,
} from '../../schemas/contacts.js';
import type { Page } from '../../schemas/common.js';
import { backfillInputSchema, type BackfillUser } from '../../schemas/interactions.js';
import type { EventContact } from '../../schemas/events.js';
import { FeedbackError, parseInput, validationError } from '../errors.js';
import { decodeCursor, encodeCursor, isFiniteNumber, isId } from '../internal/cursor.js';
import { hashEmail } from '../internal/email.js';
import { jsonEqual } from '../internal/equality.js';
import { newId } from '../internal/ids.js';
import { forUpdate, json, statement, toDate, toInt, toIntOrNull, toJson, ts, type Database, type Sql, isUniqueViolation } from '../internal/sql.js';
import { emitEvent, writeWithEvent } from './events.js';
import { effectiveContactCap } from './organizations.js';

/** A contact row as the services hold it between statements. */
export interface ContactRecord {
  id: string;
  organizationId: string;
  externalUserId: string | null;
  email: string | null;
  name: string | null;
  plan: string | null;
  mrrCents: number | null;
  currency: string | null;
  metadata: Record<string, unknown>;
  source: string;
  consentBasis: string;
  firstSeenAt: Date;
  lastSeenAt: Date;
  createdAt: Date;
  updatedAt: Date;
  /** Bumped by every trait change; writes are conditional on it. Internal, never in responses. */
  version: number;
}

type Traits = Pick<ContactRecord, ContactTraitField>;
type TraitPatch = Partial<{ [K in ContactTraitField]: K extends 'metadata' ? Record<string, unknown> : Traits[K] }>;

export const CONTACT_COLUMNS =
  'c.id, c.organization_id, c.external_user_id, c.email, c.name, c.plan, c.mrr_cents, c.currency, c.metadata, c.source, c.consent_basis, c.first_seen_at, c.last_seen_at, c.created_at, c.updated_at, c.version';

export function toContactRecord(row: Record<string, unknown>): ContactRecord {
  return {
    id: row.id as string,
    organizationId: row.organization_id as string,
    externalUserId: (row.external_user_id as string | null) ?? null,
    email: (row.email as string | null) ?? null,
    name: (row.name as string | null) ?? null,
    plan: (row.plan as string | null) ?? null,
    mrrCents: toIntOrNull(row.mrr_cents),
    currency: (row.currency as string | null) ?? null,
    metadata: toJson<Record<string, unknown>>(row.metadata) ?? {},
    source: row.source as string,
    consentBasis: row.consent_basis as string,
    firstSeenAt: toDate(row.first_seen_at),
    lastSeenAt: toDate(row.last_seen_at),
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
    version: toInt(row.version),
  };
}

export function toContact(r: ContactRecord): Contact {
  return {
    id: r.id,
    organizationId: r.organizationId,
    externalUserId: r.externalUserId,
    email: r.email,
    name: r.name,
    plan: r.plan,
    mrrCents: r.mrrCents,
    currency: r.currency,
    metadata: r.metadata,
    source: r.source,
    consentBasis: r.consentBasis,
    firstSeenAt: r.firstSeenAt.toISOString(),
    lastSeenAt: r.lastSeenAt.toISOString(),
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

/** The contact as event payloads carry it: the contact without email and organizationId. */
export function toEventContact(r: ContactRecord): EventContact {
  const { email: _email, organizationId: _organizationId, ...contact } = toContact(r);
  return contact;
}

/** Shallow merge where a key set to null is removed; the cap applies to the result. */
function mergeMetadata(current: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const next: Record<string, unknown> = { ...current };
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete next[k];
    else next[k] = v;
  }
  if (Object.keys(next).length > MAX_METADATA_KEYS) {
    throw validationError([
      { path: 'metadata', code: 'too_big', message: `metadata may have at most ${MAX_METADATA_KEYS} keys after merging` },
    ]);
  }
  return next;
}

const CONFLICT_MESSAGE = 'external_user_id already taken';
/** Optimistic rounds before giving up: each round, one of the concurrent writers of a contact wins. */
const MAX_ROUNDS = 20;

/** The workspace's contact cap in force (null = unlimited). */
export async function readContactCap(db: Sql, organizationId: string): Promise<number | null> {
  const org = await db.one<Record<string, unknown>>('SELECT plan, contact_cap_override, contact_cap FROM organization WHERE id = ?', [
    organizationId,
  ]);
  if (!org) throw new FeedbackError('ERR_NOT_FOUND', 'Workspace not found.');
  return effectiveContactCap(org);
}

/** Inside a transaction: raise ERR_PLAN_LIMIT when one more contact would exceed `cap`. */
async function assertContactCapacity(tx: Sql, organizationId: string, cap: number): Promise<void> {
  // Capped workspaces serialize their contact inserts so two creations cannot both take the last place
  // (SQLite's IMMEDIATE transaction already does).
  if (tx.dialect === 'postgresql') await tx.all('SELECT id FROM organization WHERE id = ? FOR UPDATE', [organizationId]);
  const bounded = await tx.one<{ n: unknown }>(
    'SELECT COUNT(*) AS n FROM (SELECT 1 FROM contact WHERE organization_id = ? LIMIT ?) t',
    [organizationId, cap],
  );
  if (toInt(bounded?.n) < cap) return;
  const exact = await tx.one<{ n: unknown }>('SELECT COUNT(*) AS n FROM contact WHERE organization_id = ?', [organizationId]);
  const current = toInt(exact?.n);
  throw new FeedbackError(
    'ERR_PLAN_LIMIT',
    `The workspace's plan allows at most ${cap} contacts and it has ${current}; upgrade the plan or delete contacts.`,
    { limit: cap, current, resource: 'contact' },
  );
}

export interface NewContact {
  externalUserId: string | null;
  email: string | null;
  name: string | null;
  plan: string | null;
  mrrCents: number | null;
  currency: string | null;
  metadata: Record<string, unknown>;
  source: ContactSource;
  consentBasis: ConsentBasis;
  firstSeenAt?: Date;
  lastSeenAt?: Date;
}

/**
 * Insert a contact with its `contact.created` event. `cap` is the workspace's contact cap (null =
 * unlimited): an uncapped insert is one write-with-event; a capped one counts under a lock in a
 * transaction. Returns null when the externalUserId is already taken (nothing is written then).
 */
export async function insertContact(
  db: Sql | Database,
  organizationId: string,
  input: NewContact,
  now: Date,
  cap: number | null,
): Promise<ContactRecord | null> {
  const record: ContactRecord = {
    id: newId('ctc', now.getTime()),
    organizationId,
    externalUserId: input.externalUserId,
    email: input.email,
    name: input.name,
    plan: input.plan,
    mrrCents: input.mrrCents,
    currency: input.currency,
    metadata: input.metadata,
    source: input.source,
    consentBasis: input.consentBasis,
    firstSeenAt: input.firstSeenAt ?? now,
    lastSeenAt: input.lastSeenAt ?? now,
    createdAt: now,
    updatedAt: now,
    version: 1,
  };
  const write = {
    sql: `INSERT INTO contact (id, organization_id, external_user_id, email, email_hash, name, plan, mrr_cents, currency, metadata,
       source, consent_basis, first_seen_at, last_seen_at, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (organization_id, external_user_id) DO NOTHING`,
    params: [
      record.id,
      organizationId,
      record.externalUserId,
      record.email,
      hashEmail(record.email),
      record.name,
      record.plan,
      record.mrrCents,
      record.currency,
      json(record.metadata),
      record.source,
      record.consentBasis,
      ts(db, record.firstSeenAt),
      ts(db, record.lastSeenAt),
      ts(db, now),
      ts(db, now),
    ],
  };
  const event = { event: 'contact.created' as const, organizationId, contact: toEventContact(record) };
  if (cap === null) return (await writeWithEvent(db, write, event, now)) ? record : null;
  const insert = async (tx: Sql) => {
    await assertContactCapacity(tx, organizationId, cap);
    return (await writeWithEvent(tx, write, event, now)) ? record : null;
  };
  return 'transaction' in db ? db.transaction(insert) : insert(db);
}

/**
 * Apply a trait patch to a contact as read: writes the row and `contact.updated` with `changes` when
 * a trait really changed, conditional on the version read. Returns null when the contact changed or
 * vanished since it was read (the caller reads again). `seen` advances lastSeenAt (identify, public
 * interactions); a patch that only does that writes no event.
 */
export async function applyContactPatch(
  db: Sql | Database,
  current: ContactRecord,
  patch: TraitPatch,
  now: Date,
  options: { seen: boolean },
): Promise<ContactRecord | null> {
  const next: ContactRecord = { ...current };
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  for (const field of CONTACT_TRAIT_FIELDS) {
    if (!(field in patch)) continue;
    const value = field === 'metadata' ? mergeMetadata(current.metadata, patch.metadata ?? {}) : patch[field];
    if (!jsonEqual(current[field], value)) {
      changes[field] = { from: current[field], to: value };
      (next as unknown as Record<string, unknown>)[field] = value;
    }
  }
  if (options.seen && now > current.lastSeenAt) next.lastSeenAt = now;
  if (Object.keys(changes).length === 0) {
    if (next.lastSeenAt !== current.lastSeenAt) {
      // Not a trait: no version check, and it only ever moves forward.
      await db.run('UPDATE contact SET last_seen_at = ? WHERE id = ? AND last_seen_at < ?', [
        ts(db, next.lastSeenAt),
        current.id,
        ts(db, next.lastSeenAt),
      ]);
    }
    return next;
  }
  next.updatedAt = now;
  next.version = current.version + 1;
  if ('externalUserId' in changes && next.externalUserId !== null) {
    const taken = await db.one('SELECT id FROM contact WHERE organization_id = ? AND external_user_id = ? AND id <> ?', [
      current.organizationId,
      next.externalUserId,
      current.id,
    ]);
    if (taken) throw new FeedbackError('ERR_CONFLICT', CONFLICT_MESSAGE);
  }
  // Only the changed traits' columns are written: an index whose columns are not in the SET list is not touched.
  const sets: string[] = [];
  const params: unknown[] = [];
  for (const field of Object.keys(changes) as ContactTraitField[]) {
    for (const [column, value] of TRAIT_COLUMNS[field](next)) {
      sets.push(`${column} = ?`);
      params.push(value);
    }
  }
  if (next.lastSeenAt !== current.lastSeenAt) {
    sets.push('last_seen_at = ?');
    params.push(ts(db, next.lastSeenAt));
  }
  try {
    const written = await writeWithEvent(
      db,
      {
        sql: `UPDATE contact SET ${sets.join(', ')}, updated_at = ?, version = ? WHERE id = ? AND version = ?`,
        params: [...params, ts(db, next.updatedAt), next.version, current.id, current.version],
      },
      { event: 'contact.updated', organizationId: current.organizationId, contact: toEventContact(next), changes },
      now,
    );
    return written ? next : null;
  } catch (err) {
    // A concurrent writer took the externalUserId between the check and the write.
    if (isUniqueViolation(err)) throw new FeedbackError('ERR_CONFLICT', CONFLICT_MESSAGE);
    throw err;
  }
}

/** The columns a trait is stored in, with their values as bound. */
const TRAIT_COLUMNS: Record<ContactTraitField, (c: ContactRecord) => Array<[string, unknown]>> = {
  externalUserId: (c) => [['external_user_id', c.externalUserId]],
  email: (c) => [
    ['email', c.email],
    ['email_hash', hashEmail(c.email)],
  ],
  name: (c) => [['name', c.name]],
  plan: (c) => [['plan', c.plan]],
  mrrCents: (c) => [['mrr_cents', c.mrrCents]],
  currency: (c) => [['currency', c.currency]],
  metadata: (c) => [['metadata', json(c.metadata)]],
};

/** The trait patch a validated body carries: only the keys present. */
function traitPatch(body: Record<string, unknown>): TraitPatch {
  const patch: Record<string, unknown> = {};
  for (const field of CONTACT_TRAIT_FIELDS) if (field in body) patch[field] = body[field];
  return patch as TraitPatch;
}

/** Identify's one read: the contact (if any) with its workspace's cap. Prepared once per connection on PostgreSQL. */
const IDENTIFY_READ = statement(`SELECT o.plan AS org_plan, o.contact_cap_override AS org_cap_override, o.contact_cap AS org_cap, ${CONTACT_COLUMNS}
  FROM organization o LEFT JOIN contact c ON c.organization_id = o.id AND c.external_user_id = ?
  WHERE o.id = ?`);

const SORT_COLUMN: Record<ContactSort, string> = { created: 'c.created_at', last_seen: 'c.last_seen_at', mrr: 'c.mrr_cents' };

function sortValue(record: ContactRecord, sort: ContactSort): number | null {
  if (sort === 'created') return record.createdAt.getTime();
  if (sort === 'last_seen') return record.lastSeenAt.getTime();
  return record.mrrCents;
}

/** Workspace-scoped contact operations. Every statement names the workspace. */
export function createContactsService(db: Database, organizationId: string, clock: () => Date) {
  const org = organizationId;

  /** Read one contact of the workspace, locking it when inside a PostgreSQL transaction (`lock`). */
  async function readContact(tx: Sql, id: string, lock = false): Promise<ContactRecord> {
    const row = await tx.one<Record<string, unknown>>(
      `SELECT ${CONTACT_COLUMNS} FROM contact c WHERE c.organization_id = ? AND c.id = ?${lock ? forUpdate(tx) : ''}`,
      [org, id],
    );
    if (!row) throw new FeedbackError('ERR_NOT_FOUND', `No contact with id ${id}.`);
    return toContactRecord(row);
  }

  /**
   * postCount of a page of contacts in one grouped query over their ids. A per-row subquery is planned
   * for a generic contact and seq-scans posts when a few contacts hold most of them; with the ids as
   * values the planner sees each one's own statistics and uses the index.
   */
  async function postCounts(ids: string[]): Promise<Map<string, number>> {
    if (ids.length === 0) return new Map();
    const rows = await db.all<{ contact_id: string; n: unknown }>(
      `SELECT contact_id, COUNT(*) AS n FROM post WHERE contact_id IN (${ids.map(() => '?').join(', ')}) AND deleted_at IS NULL GROUP BY contact_id`,
      ids,
    );
    return new Map(rows.map((r) => [r.contact_id, toInt(r.n)]));
  }

  return {
    /** `POST /v1/contacts`: always inserts; source `admin`, consentBasis `admin_created`. */
    async create(body: unknown): Promise<Contact> {
      const input = parseInput(createContactBodySchema, body);
      const now = clock();
      const record = await insertContact(
        db,
        org,
        {
          externalUserId: input.externalUserId ?? null,
          email: input.email ?? null,
          name: input.name ?? null,
          plan: input.plan ?? null,
          mrrCents: input.mrrCents ?? null,
          currency: input.currency ?? null,
          metadata: input.metadata ?? {},
          source: 'admin',
          consentBasis: 'admin_created',
        },
        now,
        await readContactCap(db, org),
      );
      if (!record) throw new FeedbackError('ERR_CONFLICT', CONFLICT_MESSAGE);
      return toContact(record);
    },

    /**
     * `POST /v1/contacts/identify`: upsert by externalUserId. `created` tells 201 from 200.
     * The hot path: one read (the contact and the workspace's cap together), then one
     * version-conditional write with its event; a concurrent writer makes it read again.
     */
    async identify(body: unknown): Promise<{ contact: Contact; created: boolean }> {
      const input = parseInput(identifyContactBodySchema, body);
      const patch = traitPatch(input);
      for (let round = 0; round < MAX_ROUNDS; round++) {
        // Each attempt reads the clock: a write's timestamps and its event's are those of the attempt that lands.
        const now = clock();
        const row = await db.one<Record<string, unknown>>(IDENTIFY_READ, [input.externalUserId, org]);
        if (!row) throw new FeedbackError('ERR_NOT_FOUND', 'Workspace not found.');
        if (row.id !== null && row.id !== undefined) {
          const updated = await applyContactPatch(db, toContactRecord(row), patch, now, { seen: true });
          if (updated) return { contact: toContact(updated), created: false };
          continue;
        }
        const cap = effectiveContactCap({ plan: row.org_plan, contact_cap_override: row.org_cap_override, contact_cap: row.org_cap });
        const inserted = await insertContact(
          db,
          org,
          {
            externalUserId: input.externalUserId,
            email: input.email ?? null,
            name: input.name ?? null,
            plan: input.plan ?? null,
            mrrCents: input.mrrCents ?? null,
            currency: input.currency ?? null,
            metadata: mergeMetadata({}, input.metadata ?? {}),
            source: 'identify',
            consentBasis: 'sdk_identify',
          },
          now,
          cap,
        );
        // Null: a concurrent identify inserted this externalUserId first; the next round updates it.
        if (inserted) return { contact: toContact(inserted), created: true };
      }
      throw new FeedbackError('ERR_CONFLICT', 'The contact kept changing concurrently; retry the request.');
    },

    /**
     * Import historical end-users as contacts with consentBasis `legacy_inferred` (treat as suppressed
     * for marketing), skipping emails that already have a contact. One transaction for the batch.
     */
    async backfill(users: readonly BackfillUser[]): Promise<{ created: string[]; skipped: number }> {
      const input = parseInput(backfillInputSchema, users);
      const disordered = input.findIndex((u) => Date.parse(u.lastSeenAt) < Date.parse(u.firstSeenAt));
      if (disordered !== -1) {
        throw validationError([{ path: `${disordered}.lastSeenAt`, code: 'too_small', message: 'lastSeenAt must not be before firstSeenAt' }]);
      }
      const cap = await readContactCap(db, org);
      return db.transaction(async (tx) => {
        const created: string[] = [];
        let skipped = 0;
        const now = clock();
        for (const user of input) {
          const existing = await tx.one('SELECT id FROM contact WHERE organization_id = ? AND email_hash = ? LIMIT 1', [org, hashEmail(user.email)]);
          if (existing) {
            skipped++;
            continue;
          }
          const record = await insertContact(
            tx,
            org,
            {
              externalUserId: null,
              email: user.email,
              name: user.name ?? null,
              plan: null,
              mrrCents: null,
              currency: null,
              metadata: {},
              source: user.source ?? 'admin',
              consentBasis: 'legacy_inferred',
              firstSeenAt: new Date(user.firstSeenAt),
              lastSeenAt: new Date(user.lastSeenAt),
            },
            now,
            cap,
          );
          if (record) created.push(record.id);
        }
        return { created, skipped };
      });
    },

    /** `GET /v1/contacts/{id}` with postCount (exact) and voteCount/commentCount (by email hash). */
    async retrieve(id: string): Promise<ContactDetail> {
      const row = await db.one<Record<string, unknown>>(
        `SELECT ${CONTACT_COLUMNS},
           (SELECT COUNT(*) FROM post p WHERE p.contact_id = c.id AND p.deleted_at IS NULL) AS post_count,
           CASE WHEN c.email_hash IS NULL THEN 0 ELSE
             (SELECT COUNT(*) FROM vote v WHERE v.organization_id = c.organization_id AND v.email_hash = c.email_hash) END AS vote_count,
           CASE WHEN c.email_hash IS NULL THEN 0 ELSE
             (SELECT COUNT(*) FROM comment m WHERE m.organization_id = c.organization_id AND m.email_hash = c.email_hash) END AS comment_count
         FROM contact c WHERE c.organization_id = ? AND c.id = ?`,
        [org, id],
      );
      if (!row) throw new FeedbackError('ERR_NOT_FOUND', `No contact with id ${id}.`);
      return {
        ...toContact(toContactRecord(row)),
        postCount: toInt(row.post_count),
        voteCount: toInt(row.vote_count),
        commentCount: toInt(row.comment_count),
      };
    },

    /** `PATCH /v1/contacts/{id}`: omitted fields unchanged, null clears, metadata merged. */
    async update(id: string, body: unknown): Promise<Contact> {
      const input = parseInput(updateContactBodySchema, body);
      const patch = traitPatch(input);
      for (let round = 0; round < MAX_ROUNDS; round++) {
        const updated = await applyContactPatch(db, await readContact(db, id), patch, clock(), { seen: false });
        if (updated) return toContact(updated);
      }
      throw new FeedbackError('ERR_CONFLICT', 'The contact kept changing concurrently; retry the request.');
    },

    /** `DELETE /v1/contacts/{id}`: attached posts stay, with contactId null. */
    async delete(id: string): Promise<DeletedContact> {
      const now = clock();
      await db.transaction(async (tx) => {
        const current = await readContact(tx, id, true);
        await tx.all('UPDATE post SET contact_id = NULL WHERE contact_id = ? RETURNING id', [id]);
        await tx.all('UPDATE vote SET contact_id = NULL WHERE contact_id = ? RETURNING id', [id]);
        await tx.all('UPDATE comment SET contact_id = NULL WHERE contact_id = ? RETURNING id', [id]);
        await tx.all('DELETE FROM contact WHERE id = ? RETURNING id', [id]);
        await emitEvent(
          tx,
          { event: 'contact.deleted', organizationId: org, contact: { id, externalUserId: current.externalUserId } },
          now,
        );
      });
      return { id, deleted: true };
    },

    /**
     * `GET /v1/contacts`: keyset pages, ties broken on id, nulls last for `mrr`.
     * Never OFFSET: every page is an index seek.
     */
    async list(query: ListContactsQueryInput = {}): Promise<Page<ContactListItem>> {
      const q = parseInput(listContactsQuerySchema, query);
      // Cursor key: [sort value, id]; the sort value is null only in the null-mrr tail.
      const kind = `contacts:${q.sort}`;
      const key =
        q.cursor === undefined
          ? undefined
          : decodeCursor(q.cursor, kind, (k) => k.length === 2 && isId(k[1]) && (isFiniteNumber(k[0]) || (k[0] === null && q.sort === 'mrr')));
      const cursor = key && { v: key[0] as number | null, i: key[1] as string };
      const filters: string[] = ['c.organization_id = ?'];
      const params: unknown[] = [org];
      if (q.q !== undefined) {
        const like = `%${q.q.replace(/[\\%_]/g, '\\$&')}%`;
        const op = db.dialect === 'postgresql' ? 'ILIKE' : 'LIKE';
        filters.push(`(c.email ${op} ? ESCAPE '\\' OR c.name ${op} ? ESCAPE '\\')`);
        params.push(like, like);
      }
      if (q.plan !== undefined) {
        filters.push(`c.plan IN (${q.plan.map(() => '?').join(', ')})`);
        params.push(...q.plan);
      }
      const column = SORT_COLUMN[q.sort];
      const select = `SELECT ${CONTACT_COLUMNS} FROM contact c`;
      const run = (extra: string[], extraParams: unknown[], order: string, limit: number) =>
        db.all<Record<string, unknown>>(
          `${select} WHERE ${[...filters, ...extra].join(' AND ')} ORDER BY ${order} LIMIT ?`,
          [...params, ...extraParams, limit],
        );
      const want = q.limit + 1;
      let rows: Record<string, unknown>[];
      const bound = (v: number) => (q.sort === 'mrr' ? v : ts(db, new Date(v)));
      if (q.sort !== 'mrr') {
        rows = cursor
          ? await run([`(${column}, c.id) < (?, ?)`], [bound(cursor.v as number), cursor.i], `${column} DESC, c.id DESC`, want)
          : await run([], [], `${column} DESC, c.id DESC`, want);
      } else {
        // Two seeks instead of one `OR mrr IS NULL` scan: the non-null part, then the null tail.
        rows = [];
        if (!cursor || cursor.v !== null) {
          rows = cursor
            ? await run([`c.mrr_cents IS NOT NULL`, `(c.mrr_cents, c.id) < (?, ?)`], [cursor.v, cursor.i], 'c.mrr_cents DESC, c.id DESC', want)
            : await run([`c.mrr_cents IS NOT NULL`], [], 'c.mrr_cents DESC, c.id DESC', want);
        }
        if (rows.length < want) {
          const tail = cursor && cursor.v === null
            ? await run(['c.mrr_cents IS NULL', 'c.id < ?'], [cursor.i], 'c.id DESC', want - rows.length)
            : await run(['c.mrr_cents IS NULL'], [], 'c.id DESC', want - rows.length);
          rows = rows.concat(tail);
        }
      }
      const hasMore = rows.length > q.limit;
      const records = rows.slice(0, q.limit).map(toContactRecord);
      const counts = await postCounts(records.map((r) => r.id));
      const page = records.map((record) => ({ record, postCount: counts.get(record.id) ?? 0 }));
      const last = page[page.length - 1];
      return {
        data: page.map(({ record, postCount }) => ({ ...toContact(record), postCount })),
        nextCursor: hasMore && last ? encodeCursor(kind, [sortValue(last.record, q.sort), last.record.id]) : null,
      };
    },
  };
}
export type ContactsService = ReturnType<typeof createContactsService>;
