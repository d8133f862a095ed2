import { getRouterParams, type H3, type H3Event } from 'h3';
import type { ConsoleKey } from '../../engine/index.js';
import { CONSOLE_PATH, type ContactActivity, FeedbackError, type Team } from '../../engine/index.js';
import { htmlResponse, seeOther } from '../../h3/index.js';
import { CONTACT_SORTS, type ContactSort } from '../../schemas/contacts.js';
import { contactPage, listPage, newContactPage, requestPage } from './contacts.page.js';
import type { Frame } from './layout.js';
import { type ActContext, type ConsoleSite, type ConsoleVisit, noticeOf, statusOf } from './site.js';
import { say } from './words.js';

const DONE: Record<string, ConsoleKey> = {
  created: 'console.done.contacts.created',
  erased: 'console.done.contacts.erased',
};

/** A contact's body from the form: only what was filled in; revenue in cents from a decimal amount. */
function contactBody(form: URLSearchParams): Record<string, unknown> {
  const text = (name: string) => form.get(name)?.trim() || undefined;
  const body: Record<string, unknown> = {
    email: text('email'),
    name: text('name'),
    externalUserId: text('externalUserId'),
    plan: text('plan'),
  };
  const mrr = text('mrr');
  if (mrr !== undefined || text('currency') !== undefined) {
    if (mrr === undefined || !/^\d{1,9}(\.\d{1,2})?$/.test(mrr))
      throw new FeedbackError('ERR_VALIDATION', say('console.contacts.mrrFormat'));
    body.mrrCents = Math.round(Number(mrr) * 100);
    body.currency = text('currency')?.toUpperCase();
  }
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
}

const contactOf = (event: H3Event) => getRouterParams(event).contact ?? '';
const listPath = (team: Team) => `${CONSOLE_PATH}/${team.organizationId}/contacts`;
const frameOf = (v: ConsoleVisit, team: Team, title: string, notice: string | null = null): Frame => ({
  ...v.frame,
  title,
  section: 'contacts',
  team,
  notice,
});

/** The contact's activity, or the 404 page. */
async function activityOf(
  site: ConsoleSite,
  v: ConsoleVisit,
  team: Team,
  id: string,
): Promise<ContactActivity | Response> {
  try {
    return await site.engine.workspace(team.organizationId).contacts.activity(id);
  } catch (err) {
    if (err instanceof FeedbackError && err.code === 'ERR_NOT_FOUND')
      return site.notFound(v, say('console.contacts.noSuch'));
    throw err;
  }
}

/** The list, sorted (revenue first by default), searched and filtered by plan; a cursor that is not one shows the first page. */
const listContacts = (site: ConsoleSite) => async (event: H3Event) => {
  const m = await site.member(event);
  if (m instanceof Response) return m;
  const p = event.url.searchParams;
  const sort = (CONTACT_SORTS as readonly string[]).includes(p.get('sort') ?? '')
    ? (p.get('sort') as ContactSort)
    : 'mrr';
  const w = site.engine.workspace(m.team.organizationId);
  const contacts = w.contacts;
  // By revenue with several currencies, one at a time (the one asked for, else the workspace's impact currency, else
  // the first): amounts in different currencies are never ranked together.
  const currencies = sort === 'mrr' ? await contacts.currencies() : [];
  const asked = p.get('currency') ?? '';
  const { mostCommon } = currencies.length > 1 ? await w.triage.currencies() : { mostCommon: null };
  const currency =
    currencies.length < 2
      ? null
      : currencies.includes(asked)
        ? asked
        : mostCommon && currencies.includes(mostCommon)
          ? mostCommon
          : currencies[0]!;
  const query = { q: p.get('q')?.trim() ?? '', plan: p.get('plan')?.trim() ?? '', sort, currency };
  const ask = { sort, q: query.q || undefined, plan: query.plan || undefined, limit: 50 };
  const only = currency ? { currency } : {};
  const result = await contacts.list({ ...ask, cursor: p.get('cursor') || undefined }, only).catch((err: unknown) => {
    if (err instanceof FeedbackError && err.code === 'ERR_VALIDATION') return contacts.list(ask, only);
    throw err;
  });
  const frame = frameOf(m.v, m.team, say('console.contacts.heading'), noticeOf(event, DONE));
  return htmlResponse(200, listPage(frame, m.team, query, result.data, result.nextCursor, currencies), m.v.cookies);
};

const NEW_CONTACT_FIELDS = ['email', 'name', 'externalUserId', 'plan', 'mrr', 'currency', 'attestation'];

/** Adding a contact by hand (owners and admins), with the attestation; refused, the form again with what was typed. */
const createContact = (site: ConsoleSite) => (event: H3Event) =>
  site.act(
    event,
    listPath,
    async ({ form, team, actor, v }) => {
      const attested = form.get('attestation') ?? '';
      const contact = await site.engine
        .workspace(team.organizationId)
        .as(actor)
        .contacts.create(contactBody(form), attested);
      return seeOther(`${listPath(team)}/${contact.id}?done=created`, v.cookies);
    },
    async (m, err) => {
      const drafts = Object.fromEntries(NEW_CONTACT_FIELDS.map((k) => [k, m.form.get(k) ?? '']));
      const body = newContactPage(frameOf(m.v, m.team, say('console.contacts.addTitle')), m.team, {
        drafts,
        refused: err.message,
      });
      return htmlResponse(statusOf(err), body, m.v.cookies);
    },
  );

/** A contact's page: who they are, their consent, and what they did. */
const showContact = (site: ConsoleSite) => async (event: H3Event) => {
  const m = await site.member(event);
  if (m instanceof Response) return m;
  const a = await activityOf(site, m.v, m.team, contactOf(event));
  if (a instanceof Response) return a;
  const frame = frameOf(
    m.v,
    m.team,
    a.contact.name ?? a.contact.email ?? say('console.contacts.contact'),
    noticeOf(event, DONE),
  );
  return htmlResponse(200, contactPage(frame, m.team, a), m.v.cookies);
};

/** The confirmation page of an export or an erasure (owners and admins). */
const requestForm = (site: ConsoleSite, kind: 'export' | 'erase') => async (event: H3Event) => {
  const m = await site.manager(event);
  if (m instanceof Response) return m;
  const a = await activityOf(site, m.v, m.team, contactOf(event));
  if (a instanceof Response) return a;
  const frame = frameOf(
    m.v,
    m.team,
    say(kind === 'export' ? 'console.contacts.exportTitle' : 'console.contacts.eraseTitle'),
  );
  return htmlResponse(200, requestPage(frame, m.team, a, kind, null), m.v.cookies);
};

/** The export: a JSON file to download, never kept in a cache. */
const exportContact = (site: ConsoleSite) => (event: H3Event) =>
  site.act(
    event,
    (team) => `${listPath(team)}/${contactOf(event)}`,
    async ({ team, actor }) => {
      const document = await site.engine.workspace(team.organizationId).as(actor).contacts.export(contactOf(event));
      return jsonDownload(document, `export-${contactOf(event).replace(/[^A-Za-z0-9_-]/g, '')}.json`);
    },
  );

/** The erasure, once `erase` is typed; refused for that, the confirmation page again with why. */
const eraseContact = (site: ConsoleSite) => (event: H3Event) =>
  site.act(
    event,
    listPath,
    async ({ form, team, actor }) => {
      if ((form.get('confirm') ?? '').trim().toLowerCase() !== 'erase')
        throw new FeedbackError('ERR_VALIDATION', say('console.contacts.typeEraseError'));
      await site.engine.workspace(team.organizationId).as(actor).contacts.erase(contactOf(event));
      return 'erased';
    },
    async (m: ActContext, err) => {
      if (err.code !== 'ERR_VALIDATION')
        return site.refused(m.v, m.team, err, { href: listPath(m.team), label: say('console.contacts.back') });
      const a = await activityOf(site, m.v, m.team, contactOf(event));
      if (a instanceof Response) return a;
      return htmlResponse(
        422,
        requestPage(frameOf(m.v, m.team, say('console.contacts.eraseTitle')), m.team, a, 'erase', err.message),
        m.v.cookies,
      );
    },
  );

/** The contacts: the list (sorted, searched, filtered by plan), a contact's page, adding one by hand, export and erasure. */
export function mountContacts(router: H3, site: ConsoleSite): void {
  const list = `${CONSOLE_PATH}/:org/contacts`;
  router.get(list, listContacts(site));
  router.get(`${list}/new`, async (event) => {
    const m = await site.manager(event);
    if (m instanceof Response) return m;
    const body = newContactPage(frameOf(m.v, m.team, say('console.contacts.addTitle')), m.team, {
      drafts: {},
      refused: null,
    });
    return htmlResponse(200, body, m.v.cookies);
  });
  router.post(list, createContact(site));
  router.get(`${list}/:contact`, showContact(site));
  for (const kind of ['export', 'erase'] as const) router.get(`${list}/:contact/${kind}`, requestForm(site, kind));
  router.post(`${list}/:contact/export`, exportContact(site));
  router.post(`${list}/:contact/erase`, eraseContact(site));
}

/** A JSON document to download (an export), never kept in a cache. */
function jsonDownload(document: unknown, file: string): Response {
  return new Response(JSON.stringify(document, null, 2), {
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'content-disposition': `attachment; filename="${file}"`,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    },
  });
}
