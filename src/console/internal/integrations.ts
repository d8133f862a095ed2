import { getRouterParams, type H3, type H3Event } from 'h3';
import type { ConnectInput, ConsoleKey, Team } from '../../engine/index.js';
import { allows, CONSOLE_PATH, FeedbackError } from '../../engine/index.js';
import { htmlResponse, seeOther } from '../../h3/index.js';
import { INTEGRATION_SERVICES, type IntegrationService } from '../../schemas/integrations.js';
import { integrationsPage } from './integrations.page.js';
import type { Frame } from './layout.js';
import { type ConsoleSite, type ConsoleVisit, noticeOf, statusOf } from './site.js';
import { say } from './words.js';

const DONE: Record<string, ConsoleKey> = {
  connected: 'console.done.integrations.connected',
  saved: 'console.done.integrations.saved',
  disconnected: 'console.done.integrations.disconnected',
};

const pathOf = (team: Team) => `${CONSOLE_PATH}/${team.organizationId}/integrations`;
const frameOf = (v: ConsoleVisit, team: Team, notice: string | null): Frame => ({
  ...v.frame,
  title: say('console.integrations.heading'),
  section: 'integrations',
  team,
  notice,
});

async function render(
  site: ConsoleSite,
  v: ConsoleVisit,
  team: Team,
  notice: string | null,
  refused: { service: string; message: string } | null = null,
  status = 200,
) {
  const connected = await site.engine.workspace(team.organizationId).integrations.overview();
  const { oauth } = site.engine.integrations.config.linear;
  const offers = { oauth: { linear: Boolean(oauth), slack: Boolean(site.engine.integrations.config.slack.oauth) } };
  return htmlResponse(status, integrationsPage(frameOf(v, team, notice), team, connected, offers, refused), v.cookies);
}

/** The connect form's fields, as `connect` takes them. */
function connectInput(service: IntegrationService, form: URLSearchParams): ConnectInput {
  const fields = Object.fromEntries([...form.entries()].filter(([k, v]) => k !== 'csrf' && v.trim() !== ''));
  return { ...fields, service } as ConnectInput;
}

/** The settings form's fields, as `updateSettings` takes them. */
function settingsChange(form: URLSearchParams): Record<string, unknown> {
  const change: Record<string, unknown> = {};
  const map = [...form.entries()].filter(([k]) => k.startsWith('map.'));
  if (map.length) change.statusMap = Object.fromEntries(map.map(([k, v]) => [k.slice(4), v]));
  if (form.has('channel')) change.channel = form.get('channel');
  if (form.has('minimumMrr')) {
    change.notices = form.getAll('notices');
    change.minimumMrr = form.get('minimumMrr');
    change.currency = form.get('currency') || 'USD';
  }
  // Linear's form sends `replyComments` twice when the box is ticked (a hidden 0, then the box's 1), once when not.
  if (form.has('replyComments')) change.replyComments = form.getAll('replyComments').includes('1');
  return change;
}

/** A form of the page: its change, then the page with what was done, or the page again with the refusal. */
const onPage =
  (
    site: ConsoleSite,
    service: (event: H3Event) => string,
    run: (ctx: Parameters<Parameters<ConsoleSite['act']>[2]>[0], event: H3Event) => Promise<string>,
  ) =>
  (event: H3Event) =>
    site.act(
      event,
      pathOf,
      (ctx) => run(ctx, event),
      (m, err) => render(site, m.v, m.team, null, { service: service(event), message: err.message }, statusOf(err)),
    );

/** OAuth: send the person to the service, bound to them and the workspace by the sealed `state`. */
async function startOAuth(site: ConsoleSite, event: H3Event) {
  const m = await site.manager(event);
  if (m instanceof Response) return m;
  const service = getRouterParams(event).service as 'linear' | 'slack';
  try {
    const state = site.engine.integrations.oauthState({
      organizationId: m.team.organizationId,
      service,
      email: m.v.identity!.email,
    });
    const to = site.engine.integrations.authorizeUrl(
      service,
      site.engine.integrations.callbackUrl(service, event.url.origin),
      state,
    );
    return seeOther(to, m.v.cookies);
  } catch (err) {
    if (!(err instanceof FeedbackError)) throw err;
    return render(site, m.v, m.team, null, { service, message: err.message }, statusOf(err));
  }
}

/** OAuth's way back: the same person, a manager of the workspace the state names; the code traded, then connected. */
async function finishOAuth(site: ConsoleSite, event: H3Event) {
  const v = await site.visit(event);
  if (!v.identity) return site.signInFirst(v);
  const back = site.engine.integrations.readOauthState(event.url.searchParams.get('state') ?? '');
  const team = back && site.teamOf(v, back.organizationId);
  if (!back || !team || back.email !== v.identity.email || !allows(team.role, 'manage'))
    return site.notFound(v, say('console.integrations.oauthRefused', { reason: 'the link is not yours, or too old' }));
  const service = getRouterParams(event).service;
  const code = event.url.searchParams.get('code');
  if (service !== back.service || !code) {
    const reason = event.url.searchParams.get('error') ?? 'no code came back';
    return render(
      site,
      { ...v, frame: { ...v.frame } },
      team,
      null,
      { service: back.service, message: say('console.integrations.oauthRefused', { reason }) },
      400,
    );
  }
  try {
    const input = await site.engine.integrations.exchangeCode(
      back.service,
      code,
      site.engine.integrations.callbackUrl(back.service, event.url.origin),
    );
    await site.engine.workspace(team.organizationId).as(site.actor(v)).integrations.connect(input);
  } catch (err) {
    if (!(err instanceof FeedbackError)) throw err;
    return render(site, v, team, null, { service: back.service, message: err.message }, statusOf(err));
  }
  return seeOther(`${pathOf(team)}?done=connected`, v.cookies);
}

/** The Integrations page (owners and admins): connect Linear, GitHub and Slack, their choices, disconnect. */
export function mountIntegrations(router: H3, site: ConsoleSite): void {
  const base = `${CONSOLE_PATH}/:org/integrations`;
  router.get(base, async (event) => {
    const m = await site.manager(event);
    return m instanceof Response ? m : render(site, m.v, m.team, noticeOf(event, DONE));
  });
  const serviceOf = (event: H3Event) => getRouterParams(event).service ?? '';
  router.post(
    `${base}/:service/connect`,
    onPage(site, serviceOf, async ({ form, team, actor }, event) => {
      const service = serviceOf(event);
      if (!(INTEGRATION_SERVICES as readonly string[]).includes(service))
        throw new FeedbackError('ERR_NOT_FOUND', 'No such service.');
      await site.engine
        .workspace(team.organizationId)
        .as(actor)
        .integrations.connect(connectInput(service as IntegrationService, form));
      return 'connected';
    }),
  );
  router.get(`${base}/:service/oauth`, (event) => startOAuth(site, event));
  router.get(`${CONSOLE_PATH}/integrations/:service/callback`, (event) => finishOAuth(site, event));
  const idOf = (event: H3Event) => getRouterParams(event).id ?? '';
  router.post(
    `${base}/:id/settings`,
    onPage(site, idOf, async ({ form, team, actor }, event) => {
      await site.engine
        .workspace(team.organizationId)
        .as(actor)
        .integrations.updateSettings(idOf(event), settingsChange(form));
      return 'saved';
    }),
  );
  router.post(
    `${base}/:id/disconnect`,
    onPage(site, idOf, async ({ form, team, actor }, event) => {
      if (form.get('confirm') !== '1')
        throw new FeedbackError('ERR_VALIDATION', say('console.integrations.tickToDisconnect'));
      await site.engine.workspace(team.organizationId).as(actor).integrations.disconnect(idOf(event));
      return 'disconnected';
    }),
  );
}
