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
import type { EventContact } from '../../schemas/events.js';
import { FeedbackError, parseInput, validationError } from '../errors.js';
import { hashEmail } from '../internal/email.js';
import { jsonEqual } from '../internal/equality.js';
import { newId } from '../internal/ids.js';
import { forUpdate, json, toDate, toInt, toIntOrNull, toJson, ts, type Database, type Sql } from '../internal/sql.js';
import { emitEvent } from './events.js';
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
}

type Traits = Pick<ContactRecord, ContactTraitField>;
type TraitPatch = Partial<{ [K in ContactTraitField]: K extends 'metadata' ? Record<string, unknown> : Traits[K] }>;

export const CONTACT_COLUMNS =
  'c.id, c.organization_id, c.external_user_id, c.email, c.name, c.plan, c.mrr_cents, c.currency, c.metadata, c.source, c.consent_basis, c.first_seen_at, c.last_seen_at, c.created_at, c.updated_at';

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

function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT' || /UNIQUE constraint failed/.test(e?.message ?? '');
}

/** Raise ERR_PLAN_LIMIT when one more contact would exceed the workspace's cap. */
async function assertContactCapacity(tx: Sql, organizationId: string): Promise<void> {
  const org = await tx.one<Record<string, unknown>>(
    'SELECT plan, contact_cap_override, contact_cap FROM organization WHERE id = ?',
    [organizationId],
  );
  if (!org) throw new FeedbackError('ERR_NOT_FOUND', 'Workspace not found.');
  const cap = effectiveContactCap(org);
  if (cap === null) return;
  // Capped workspaces serialize their contact inserts so two creations cannot both take the last place.
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
 * Insert a contact and its `contact.created` event in the caller's transaction. Returns null
 * when the externalUserId is already taken (nothing is written then).
 */
export async function insertContact(tx: Sql, organizationId: string, input: NewContact, now: Date): Promise<ContactRecord | null> {
  await assertContactCapacity(tx, organizationId);
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
  };
  const rows = await tx.all(
    `INSERT INTO contact (id, organization_id, external_user_id, email, email_hash, name, plan, mrr_cents, currency, metadata,
       source, consent_basis, first_seen_at, last_seen_at, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (organization_id, external_user_id) DO NOTHING RETURNING id`,
    [
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
      ts(tx, record.firstSeenAt),
      ts(tx, record.lastSeenAt),
      ts(tx, now),
      ts(tx, now),
    ],
  );
  if (rows.length === 0) return null;
  await emitEvent(tx, { event: 'contact.created', organizationId, contact: toEventContact(record) }, now);
  return record;
}

/**
 * Apply a trait patch to a locked contact row: writes the row, and `contact.updated` with
 * `changes` when a trait really changed. `seen` advances lastSeenAt (identify, public interactions).
 */
export async function applyContactPatch(
  tx: Sql,
  current: ContactRecord,
  patch: TraitPatch,
  now: Date,
  options: { seen: boolean },
): Promise<ContactRecord> {
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
  const changed = Object.keys(changes).length > 0;
  if (options.seen && now > current.lastSeenAt) next.lastSeenAt = now;
  if (changed) {
    next.updatedAt = now;
    if ('externalUserId' in changes && next.externalUserId !== null) {
      const taken = await tx.one('SELECT id FROM contact WHERE organization_id = ? AND external_user_id = ? AND id <> ?', [
        current.organizationId,
        next.externalUserId,
        current.id,
      ]);
      if (taken) throw new FeedbackError('ERR_CONFLICT', CONFLICT_MESSAGE);
    }
    try {
      await tx.all(
        `UPDATE contact SET external_user_id = ?, email = ?, email_hash = ?, name = ?, plan = ?, mrr_cents = ?, currency = ?,
           metadata = ?, last_seen_at = ?, updated_at = ? WHERE id = ? RETURNING id`,
        [
          next.externalUserId,
          next.email,
          hashEmail(next.email),
          next.name,
          next.plan,
          next.mrrCents,
          next.currency,
          json(next.metadata),
          ts(tx, next.lastSeenAt),
          ts(tx, next.updatedAt),
          current.id,
        ],
      );
    } catch (err) {
      if (isUniqueViolation(err)) throw new FeedbackError('ERR_CONFLICT', CONFLICT_MESSAGE);
      throw err;
    }
    await emitEvent(
      tx,
      { event: 'contact.updated', organizationId: current.organizationId, contact: toEventContact(next), changes },
      now,
    );
  } else if (next.lastSeenAt !== current.lastSeenAt) {
    await tx.all('UPDATE contact SET last_seen_at = ? WHERE id = ? RETURNING id', [ts(tx, next.lastSeenAt), current.id]);
  }
  return next;
}

/** The trait patch a validated body carries: only the keys present. */
function traitPatch(body: Record<string, unknown>): TraitPatch {
  const patch: Record<string, unknown> = {};
  for (const field of CONTACT_TRAIT_FIELDS) if (field in body) patch[field] = body[field];
  return patch as TraitPatch;
}

export interface CursorKey {
  s: ContactSort;
  /** The sort value of the last row: epoch ms, mrr cents, or null for the null-mrr tail. */
  v: number | null;
  i: string;
}

/** @internal Exported for the benchmark, which seeks straight to a deep page. */
export function encodeCursor(key: CursorKey): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

function decodeCursor(cursor: string, sort: ContactSort): CursorKey {
  const invalid = () =>
    validationError([{ path: 'cursor', code: 'invalid_cursor', message: 'cursor is not valid for this list and sort' }]);
  let key: CursorKey;
  try {
    key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as CursorKey;
  } catch {
    throw invalid();
  }
  if (!key || typeof key !== 'object' || key.s !== sort || typeof key.i !== 'string' || key.i.length === 0) throw invalid();
  if (!(typeof key.v === 'number' && Number.isFinite(key.v)) && !(key.v === null && sort === 'mrr')) throw invalid();
  return key;
}

const SORT_COLUMN: Record<ContactSort, string> = { created: 'c.created_at', last_seen: 'c.last_seen_at', mrr: 'c.mrr_cents' };

function sortValue(record: ContactRecord, sort: ContactSort): number | null {
  if (sort === 'created') return record.createdAt.getTime();
  if (sort === 'last_seen') return record.lastSeenAt.getTime();
  return record.mrrCents;
}

/** Workspace-scoped contact operations. Every statement names the workspace. */
export function createContactsService(db: Database, organizationId: string, clock: () => Date) {
  const org = organizationId;

  async function lockContact(tx: Sql, id: string): Promise<ContactRecord> {
    const row = await tx.one<Record<string, unknown>>(
      `SELECT ${CONTACT_COLUMNS} FROM contact c WHERE c.organization_id = ? AND c.id = ?${forUpdate(tx)}`,
      [org, id],
    );
    if (!row) throw new FeedbackError('ERR_NOT_FOUND', `No contact with id ${id}.`);
    return toContactRecord(row);
  }

  return {
    /** `POST /v1/contacts`: always inserts; source `admin`, consentBasis `admin_created`. */
    async create(body: unknown): Promise<Contact> {
      const input = parseInput(createContactBodySchema, body);
      const now = clock();
      const record = await db.transaction((tx) =>
        insertContact(
          tx,
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
        ),
      );
      if (!record) throw new FeedbackError('ERR_CONFLICT', CONFLICT_MESSAGE);
      return toContact(record);
    },

    /**
     * `POST /v1/contacts/identify`: upsert by externalUserId. `created` tells 201 from 200.
     * Runs as a few explicit statements in one transaction (the hot path).
     */
    async identify(body: unknown): Promise<{ contact: Contact; created: boolean }> {
      const input = parseInput(identifyContactBodySchema, body);
      const patch = traitPatch(input);
      const now = clock();
      // A concurrent identify may insert the same externalUserId between our read and our insert:
      // the insert then does nothing and the next round finds the row.
      for (let round = 0; round < 3; round++) {
        const result = await db.transaction(async (tx) => {
          const row = await tx.one<Record<string, unknown>>(
            `SELECT ${CONTACT_COLUMNS} FROM contact c WHERE c.organization_id = ? AND c.external_user_id = ?${forUpdate(tx)}`,
            [org, input.externalUserId],
          );
          if (row) {
            const updated = await applyContactPatch(tx, toContactRecord(row), patch, now, { seen: true });
            return { contact: toContact(updated), created: false };
          }
          const inserted = await insertContact(
            tx,
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
          );
          return inserted ? { contact: toContact(inserted), created: true } : null;
        });
        if (result) return result;
      }
      throw new FeedbackError('ERR_CONFLICT', 'The contact changed concurrently; retry the request.');
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
      const now = clock();
      const record = await db.transaction(async (tx) =>
        applyContactPatch(tx, await lockContact(tx, id), traitPatch(input), now, { seen: false }),
      );
      return toContact(record);
    },

    /** `DELETE /v1/contacts/{id}`: attached posts stay, with contactId null. */
    async delete(id: string): Promise<DeletedContact> {
      const now = clock();
      await db.transaction(async (tx) => {
        const current = await lockContact(tx, id);
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
      const cursor = q.cursor === undefined ? undefined : decodeCursor(q.cursor, q.sort);
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
      const select = `SELECT ${CONTACT_COLUMNS},
          (SELECT COUNT(*) FROM post p WHERE p.contact_id = c.id AND p.deleted_at IS NULL) AS post_count
        FROM contact c`;
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
      const page = rows.slice(0, q.limit).map((row) => ({ record: toContactRecord(row), postCount: toInt(row.post_count) }));
      const last = page[page.length - 1];
      return {
        data: page.map(({ record, postCount }) => ({ ...toContact(record), postCount })),
        nextCursor: hasMore && last ? encodeCursor({ s: q.sort, v: sortValue(last.record, q.sort), i: last.record.id }) : null,
      };
    },
  };
}
export type ContactsService = ReturnType<typeof createContactsService>;
