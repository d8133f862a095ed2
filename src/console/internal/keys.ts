import { getRouterParams, type H3, type H3Event } from 'h3';
import type { ConsoleKey } from '../../engine/index.js';
import { CONSOLE_PATH, FeedbackError, type Team } from '../../engine/index.js';
import { htmlResponse } from '../../h3/index.js';
import { GRACE, keysPage } from './keys.page.js';
import { type Frame, shownOnce } from './layout.js';
import { type ActContext, type ConsoleSite, type ConsoleVisit, noticeOf, statusOf } from './site.js';
import { say } from './words.js';

const graceOf = (form: URLSearchParams) => {
  const seconds = Number(form.get('grace'));
  if (!GRACE.some((s) => s === seconds)) throw new FeedbackError('ERR_VALIDATION', say('console.keys.chooseGrace'));
  return seconds;
};

const DONE: Record<string, ConsoleKey> = {
  revoked: 'console.done.keys.revoked',
};

const back = (team: Team) => `${CONSOLE_PATH}/${team.organizationId}/keys`;
const utc = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

/** The keys page, with a notice or a refusal. */
async function render(
  site: ConsoleSite,
  v: ConsoleVisit,
  team: Team,
  notice: string | null,
  refused: string | null = null,
  status = 200,
) {
  const [keys, portal] = await Promise.all([
    site.engine.keys.list(team.organizationId),
    site.engine.workspace(team.organizationId).participation.secret.state(),
  ]);
  const frame: Frame = { ...v.frame, title: say('console.keys.title'), section: 'keys', team, notice };
  return htmlResponse(status, keysPage(frame, team, keys, portal, site.engine.clock(), refused), v.cookies);
}

/** A key or secret shown once, on a page of its own, with the way back to the keys. */
const shown = ({ v, team }: ActContext, title: string, secret: string, note: string) =>
  shownOnce(
    { ...v.frame, title, section: 'keys', team },
    secret,
    note,
    { href: back(team), label: say('console.keys.back') },
    v.cookies,
  );

type KeyForm = (site: ConsoleSite, ctx: ActContext, event: H3Event) => Promise<string | Response>;

/** The forms of the keys page, by path: each makes its change as the member and answers a word or a secret shown once. */
const FORMS: Record<string, KeyForm> = {
  '': async (site, ctx) => {
    const scope = ctx.form.get('scope');
    if (scope !== 'read' && scope !== 'read:write')
      throw new FeedbackError('ERR_VALIDATION', say('console.keys.chooseScope'));
    const key = await site.engine.workspace(ctx.team.organizationId).as(ctx.actor).keys.create(scope);
    return shown(ctx, say('console.keys.created'), key.key, say('console.keys.createdNote', { scope: key.scope }));
  },
  '/:key/rotate': async (site, ctx, event) => {
    const keys = site.engine.workspace(ctx.team.organizationId).as(ctx.actor).keys;
    const key = await keys.rotate(getRouterParams(event).key ?? '', graceOf(ctx.form));
    const note = say('console.keys.rotatedNote', { replaces: key.replaces, until: utc(key.previousValidUntil) });
    return shown(ctx, say('console.keys.rotated'), key.key, note);
  },
  '/:key/revoke': async (site, ctx, event) => {
    await site.engine
      .workspace(ctx.team.organizationId)
      .as(ctx.actor)
      .keys.revoke(getRouterParams(event).key ?? '');
    return 'revoked';
  },
  '/portal': async (site, ctx) => {
    const { secret } = await site.engine.workspace(ctx.team.organizationId).as(ctx.actor).portalSecret.create();
    return shown(ctx, say('console.keys.portalCreated'), secret, say('console.keys.portalNote'));
  },
  '/portal/rotate': async (site, ctx) => {
    const rotated = await site.engine
      .workspace(ctx.team.organizationId)
      .as(ctx.actor)
      .portalSecret.rotate(graceOf(ctx.form));
    const until = rotated.previousValidUntil
      ? say('console.keys.oldUntil', { until: utc(rotated.previousValidUntil) })
      : say('console.keys.oldNoMore');
    return shown(ctx, say('console.keys.portalRotated'), rotated.secret, until);
  },
};

/** API keys (list, create, revoke, rotate with a grace period) and the portal secret (create, rotate): owners and admins. */
export function mountKeys(router: H3, site: ConsoleSite): void {
  const path = `${CONSOLE_PATH}/:org/keys`;
  router.get(path, async (event) => {
    const m = await site.manager(event);
    if (m instanceof Response) return m;
    return render(site, m.v, m.team, noticeOf(event, DONE));
  });
  for (const [suffix, run] of Object.entries(FORMS))
    router.post(`${path}${suffix}`, (event) =>
      site.act(
        event,
        back,
        (ctx) => run(site, ctx, event),
        (m, err) => render(site, m.v, m.team, null, err.message, statusOf(err)),
      ),
    );
}
