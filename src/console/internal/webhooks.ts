import { getRouterParams, type H3, type H3Event } from 'h3';
import type { ConsoleKey } from '../../engine/index.js';
import { CONSOLE_PATH, FeedbackError, type Team } from '../../engine/index.js';
import { htmlResponse } from '../../h3/index.js';
import type { UpdateWebhookBody, Webhook } from '../../schemas/webhooks.js';
import { type Frame, shownOnce } from './layout.js';
import { type ActContext, type ConsoleSite, type ConsoleVisit, noticeOf, statusOf } from './site.js';
import { listPage, webhookPage } from './webhooks.page.js';
import { say } from './words.js';

const DONE: Record<string, ConsoleKey> = {
  saved: 'console.done.webhooks.saved',
  enabled: 'console.done.webhooks.enabled',
  disabled: 'console.done.webhooks.disabled',
  deleted: 'console.done.webhooks.deleted',
  replayed: 'console.done.webhooks.replayed',
};

/** The body of a create or an edit from the form. */
const webhookBody = (form: URLSearchParams) => ({
  url: (form.get('url') ?? '').trim(),
  events: form.getAll('events') as Webhook['events'],
  description: form.get('description')?.trim() || null,
});

type Refused = { message: string; drafts: URLSearchParams } | null;

const hookOf = (event: H3Event) => getRouterParams(event).webhook ?? '';
const listPath = (team: Team) => `${CONSOLE_PATH}/${team.organizationId}/webhooks`;
const frameOf = (v: ConsoleVisit, team: Team, title: string, notice: string | null = null): Frame => ({
  ...v.frame,
  title,
  section: 'webhooks',
  team,
  notice,
});

/** The list page, with a notice, or with the add form's refusal and what was typed. */
async function renderList(
  site: ConsoleSite,
  v: ConsoleVisit,
  team: Team,
  notice: string | null,
  refused: Refused = null,
  status = 200,
) {
  const service = site.engine.workspace(team.organizationId).webhooks;
  const [hooks, failures] = await Promise.all([service.list({ limit: 100 }), service.failureCounts()]);
  const body = listPage(frameOf(v, team, say('console.webhooks.heading'), notice), team, hooks.data, failures, refused);
  return htmlResponse(status, body, v.cookies);
}

/** A webhook's page with a page of its delivery log (a cursor that is not one, typed or stale, shows the first). */
async function renderHook(
  site: ConsoleSite,
  v: ConsoleVisit,
  team: Team,
  id: string,
  view: { cursor?: string; notice?: string | null; refused?: string | null; status?: number },
) {
  const service = site.engine.workspace(team.organizationId).webhooks;
  let hook: Webhook;
  try {
    hook = await service.retrieve(id);
  } catch (err) {
    if (err instanceof FeedbackError && err.code === 'ERR_NOT_FOUND')
      return site.notFound(v, say('console.webhooks.noSuch'));
    throw err;
  }
  const log = await service.listDeliveries(id, { cursor: view.cursor, limit: 25 }).catch((err: unknown) => {
    if (err instanceof FeedbackError && err.code === 'ERR_VALIDATION') return service.listDeliveries(id, { limit: 25 });
    throw err;
  });
  const failures = (await service.failureCounts()).get(id) ?? 0;
  const frame = frameOf(v, team, say('console.webhooks.title'), view.notice ?? null);
  const body = webhookPage(frame, team, hook, failures, log.data, log.nextCursor, view.refused ?? null);
  return htmlResponse(view.status ?? 200, body, v.cookies);
}

/** Adding a webhook: its secret is shown once, on the answer's page. */
const createWebhook = (site: ConsoleSite) => (event: H3Event) =>
  site.act(
    event,
    listPath,
    async ({ form, team, actor, v }) => {
      const created = await site.engine.workspace(team.organizationId).as(actor).webhooks.create(webhookBody(form));
      const next = { href: `${listPath(team)}/${created.id}`, label: say('console.webhooks.goTo') };
      const why = say('console.webhooks.secretWhy');
      return shownOnce(frameOf(v, team, say('console.webhooks.addedTitle')), created.secret, why, next, v.cookies);
    },
    (m, err) => renderList(site, m.v, m.team, null, { message: err.message, drafts: m.form }, statusOf(err)),
  );

/** A form posted on a webhook's page: its change, then back to the page (or the page again, with the refusal). */
const onHook =
  (
    site: ConsoleSite,
    change: (ctx: ActContext, id: string, event: H3Event) => Promise<string>,
    back?: (team: Team) => string,
  ) =>
  (event: H3Event) =>
    site.act(
      event,
      back ?? ((team) => `${listPath(team)}/${hookOf(event)}`),
      (ctx) => change(ctx, hookOf(event), event),
      (m, err) =>
        err.code === 'ERR_NOT_FOUND'
          ? Promise.resolve(site.notFound(m.v, err.message))
          : renderHook(site, m.v, m.team, hookOf(event), { refused: err.message, status: statusOf(err) }),
    );

const UPDATES: Record<string, (form: URLSearchParams) => UpdateWebhookBody> = {
  '': webhookBody,
  enable: () => ({ enabled: true }),
  disable: () => ({ enabled: false }),
};

/** The webhooks (owners and admins): the list with each one's state, adding one (its secret shown once), a webhook's page with its delivery log. */
export function mountWebhooks(router: H3, site: ConsoleSite): void {
  const list = `${CONSOLE_PATH}/:org/webhooks`;
  router.get(list, async (event) => {
    const m = await site.manager(event);
    return m instanceof Response ? m : renderList(site, m.v, m.team, noticeOf(event, DONE));
  });
  router.post(list, createWebhook(site));
  router.get(`${list}/:webhook`, async (event) => {
    const m = await site.manager(event);
    if (m instanceof Response) return m;
    const cursor = event.url.searchParams.get('cursor') ?? undefined;
    return renderHook(site, m.v, m.team, hookOf(event), { cursor, notice: noticeOf(event, DONE) });
  });
  for (const [name, bodyOf] of Object.entries(UPDATES)) {
    const update = onHook(site, async ({ form, team, actor }, id) => {
      await site.engine.workspace(team.organizationId).as(actor).webhooks.update(id, bodyOf(form));
      return name ? `${name}d` : 'saved';
    });
    router.post(`${list}/:webhook${name ? `/${name}` : ''}`, update);
  }
  const remove = onHook(
    site,
    async ({ form, team, actor }, id) => {
      if (form.get('confirm') !== '1') throw new FeedbackError('ERR_VALIDATION', say('console.webhooks.tickToDelete'));
      await site.engine.workspace(team.organizationId).as(actor).webhooks.delete(id);
      return 'deleted';
    },
    listPath,
  );
  router.post(`${list}/:webhook/delete`, remove);
  const replay = onHook(site, async ({ team, actor }, id, event) => {
    const delivery = getRouterParams(event).delivery ?? '';
    await site.engine.workspace(team.organizationId).as(actor).webhooks.replay(id, delivery);
    return 'replayed';
  });
  router.post(`${list}/:webhook/deliveries/:delivery/replay`, replay);
}
