import { getRouterParams, type H3, type H3Event } from 'h3';
import { CONSOLE_PATH, FeedbackError, type Team } from '../../engine/index.js';
import { htmlResponse } from '../../h3/index.js';
import { COMPANY_SORTS, type CompanySort } from '../../schemas/companies.js';
import { companiesPage, companyPage } from './companies.page.js';
import type { Frame } from './layout.js';
import type { ConsoleSite, ConsoleVisit } from './site.js';
import { say } from './words.js';

const frameOf = (v: ConsoleVisit, team: Team, title: string): Frame => ({
  ...v.frame,
  title,
  section: 'companies',
  team,
  notice: null,
});

/** The list, by revenue (the default) or newest, searched; a cursor that is not one shows the first page. */
const listCompanies = (site: ConsoleSite) => async (event: H3Event) => {
  const m = await site.member(event);
  if (m instanceof Response) return m;
  const p = event.url.searchParams;
  const sort = (COMPANY_SORTS as readonly string[]).includes(p.get('sort') ?? '')
    ? (p.get('sort') as CompanySort)
    : 'mrr';
  const q = p.get('q')?.trim() ?? '';
  const companies = site.engine.workspace(m.team.organizationId).companies;
  const ask = { sort, ...(q ? { q: q.slice(0, 200) } : {}), limit: 50 };
  const result = await companies.list({ ...ask, cursor: p.get('cursor') || undefined }).catch((err: unknown) => {
    if (err instanceof FeedbackError && err.code === 'ERR_VALIDATION') return companies.list(ask);
    throw err;
  });
  const body = companiesPage(
    frameOf(m.v, m.team, say('console.companies.heading')),
    m.team,
    { q, sort },
    result.data,
    result.nextCursor,
  );
  return htmlResponse(200, body, m.v.cookies);
};

/** A company's page: its account, its newest people, the posts they voted on and asked for. */
const showCompany = (site: ConsoleSite) => async (event: H3Event) => {
  const m = await site.member(event);
  if (m instanceof Response) return m;
  const id = getRouterParams(event).company ?? '';
  const w = site.engine.workspace(m.team.organizationId);
  try {
    const activity = await w.companies.activity(id);
    const members = await w.contacts.listForCompany(id, { limit: 50 });
    const body = companyPage(
      frameOf(m.v, m.team, activity.company.name ?? say('console.companies.title')),
      m.team,
      activity,
      members,
    );
    return htmlResponse(200, body, m.v.cookies);
  } catch (err) {
    if (err instanceof FeedbackError && err.code === 'ERR_NOT_FOUND')
      return site.notFound(m.v, say('console.companies.noSuch'));
    throw err;
  }
};

/** The companies: the list and a company's page (read only: your app writes them). */
export function mountCompanies(router: H3, site: ConsoleSite): void {
  router.get(`${CONSOLE_PATH}/:org/companies`, listCompanies(site));
  router.get(`${CONSOLE_PATH}/:org/companies/:company`, showCompany(site));
}
