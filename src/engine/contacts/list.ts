import type { Page } from '../../schemas/common.js';
import {
  type ContactListItem,
  type ContactSort,
  type ListContactsQueryInput,
  listContactsQuerySchema,
} from '../../schemas/contacts.js';
import { type PageQueryInput, pageQuerySchema } from '../../schemas/posts.js';
import { toCompanyRef } from '../companies/index.js';
import { type CursorKey, FeedbackError, mrrAndId, parseInput, readCursor, timeAndId, toPage } from '../shared/index.js';
import {
  companies,
  companyLists,
  contactLists,
  type contacts,
  type Sql,
  search,
  type WorkspaceContext,
} from '../store/index.js';
import { toContact } from './records.js';

function sortValue(record: contacts.ContactRecord, sort: ContactSort): number | null {
  if (sort === 'created') return record.createdAt.getTime();
  if (sort === 'last_seen') return record.lastSeenAt.getTime();
  return record.mrrCents;
}

/** Cursor key per sort: [sort value, id]; the sort value is null only in the null-mrr tail. */
const CURSOR_KEYS: Record<ContactSort, (k: CursorKey) => boolean> = {
  created: timeAndId,
  last_seen: timeAndId,
  mrr: mrrAndId,
};

/** `GET /v1/contacts`: keyset pages, ties broken on id, nulls last for `mrr`; each contact with its post count. */
export async function list(
  { db, organizationId }: WorkspaceContext,
  query: ListContactsQueryInput = {},
  options: { currency?: string } = {},
): Promise<Page<ContactListItem>> {
  const q = parseInput(listContactsQuerySchema, query);
  // The console's revenue order within one currency (not a REST parameter): its own cursors.
  const currency = q.sort === 'mrr' ? options.currency : undefined;
  const kind = `contacts:${q.sort}${currency ? `:${currency}` : ''}`;
  const key = readCursor(q.cursor, kind, CURSOR_KEYS[q.sort]);
  if (q.q !== undefined) await search.indexPending(db);
  const rows = await contactLists.listSorted(db, organizationId, {
    q: q.q,
    plan: q.plan,
    sort: q.sort,
    currency,
    limit: q.limit + 1,
    after: key && { value: key[0] as number | null, id: key[1] as string },
  });
  const page = toPage(rows, q.limit, kind, (last) => [sortValue(last, q.sort), last.id]);
  return { data: await toContactItems(db, page.data), nextCursor: page.nextCursor };
}

/** Contacts as the lists give them: each with its post count and its companies (two grouped reads for the page). */
export async function toContactItems(sql: Sql, records: contacts.ContactRecord[]): Promise<ContactListItem[]> {
  const ids = records.map((r) => r.id);
  const [counts, memberships] = await Promise.all([contactLists.postCounts(sql, ids), companies.ofContacts(sql, ids)]);
  return records.map((record) => ({
    ...toContact(record),
    postCount: counts.get(record.id) ?? 0,
    companies: (memberships.get(record.id) ?? []).map(toCompanyRef),
  }));
}

/** `GET /v1/companies/{id}/contacts`: the company's people, newest first, in keyset pages. */
export async function listForCompany(
  { db, organizationId }: WorkspaceContext,
  companyId: string,
  query: PageQueryInput = {},
): Promise<Page<ContactListItem>> {
  const q = parseInput(pageQuerySchema, query);
  if (!(await companies.find(db, organizationId, companyId)))
    throw new FeedbackError('ERR_NOT_FOUND', `No company with id ${companyId}.`);
  const kind = `company-contacts:${companyId}`;
  const key = readCursor(q.cursor, kind);
  const rows = await companyLists.members(db, companyId, {
    limit: q.limit + 1,
    after: key && { value: key[0] as number, id: key[1] as string },
  });
  const page = toPage(rows, q.limit, kind, (last) => [last.createdAt.getTime(), last.id]);
  return { data: await toContactItems(db, page.data), nextCursor: page.nextCursor };
}
