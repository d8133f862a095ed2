import type { H3, H3Event } from 'h3';
import type { ConsoleKey } from '../../engine/index.js';
import {
  CONSOLE_PATH,
  FeedbackError,
  SSO_CALLBACK_PATH,
  type Team,
  type WorkspaceSettings,
  wordingLine,
} from '../../engine/index.js';
import { htmlResponse } from '../../h3/index.js';
import type { Frame } from './layout.js';
import { type Part, settingsPage } from './settings.page.js';
import { type ActContext, type ConsoleSite, type ConsoleVisit, noticeOf, statusOf } from './site.js';
import { say } from './words.js';

const DONE: Record<string, ConsoleKey> = {
  workspace: 'console.done.settings.workspace',
  portal: 'console.done.settings.portal',
  branding: 'console.done.settings.branding',
  search: 'console.done.settings.search',
  languages: 'console.done.settings.languages',
  sso: 'console.done.settings.sso',
  sso_off: 'console.done.settings.sso_off',
  sso_verified: 'console.done.settings.sso_verified',
  sso_required: 'console.done.settings.sso_required',
  sso_not_required: 'console.done.settings.sso_not_required',
};

const lines = (text: string | null) =>
  (text ?? '')
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);

/** This server's address as people reach it, and the SSO redirect URI under it. */
const siteAddress = (callback: string) => ({ site: callback.slice(0, -SSO_CALLBACK_PATH.length), callback });

/** What each of the settings forms saves. */
const PARTS: Record<Exclude<Part, 'sso'>, (form: URLSearchParams) => WorkspaceSettings> = {
  workspace: (form) => ({
    name: (form.get('name') ?? '').trim(),
    adminEmails: lines(form.get('adminEmails')).map((e) => e.toLowerCase()),
  }),
  portal: (form) => ({
    handle: form.get('handle')?.trim() || null,
    portalEnabled: form.get('portalEnabled') === 'on',
    portalModeration: form.get('portalModeration') === 'on',
    portalVerifiedOnly: form.get('portalVerifiedOnly') === 'on',
    notifyAdminCreated: form.get('notifyAdminCreated') === 'on',
    portalFrameOrigins: lines(form.get('portalFrameOrigins')),
  }),
  branding: (form) => ({
    portalLogoUrl: form.get('portalLogoUrl')?.trim() || null,
    portalAccent: form.get('resetAccent') === 'on' ? null : form.get('portalAccent')?.trim() || null,
  }),
  search: (form) => ({
    searchStems: (form.get('searchStems') ?? 'english') as WorkspaceSettings['searchStems'],
    // One group a line, its words or phrases separated by commas.
    searchSynonyms: (form.get('searchSynonyms') ?? '')
      .split('\n')
      .map((line) =>
        line
          .split(',')
          .map((m) => m.trim())
          .filter(Boolean),
      )
      .filter((group) => group.length > 0),
  }),
  languages: (form) => ({
    locale: (form.get('locale') ?? 'en') as WorkspaceSettings['locale'],
    portalWording: wordingOf(form.get('portalWording') ?? ''),
  }),
};

/** The wording the form's lines say; a line that is not `language:message=words` is refused, named by its number. */
function wordingOf(text: string): Record<string, Record<string, string>> {
  const wording: Record<string, Record<string, string>> = {};
  for (const [i, line] of text.split('\n').entries()) {
    if (!line.trim()) continue;
    const said = wordingLine(line);
    if (!said?.message) throw new FeedbackError('ERR_VALIDATION', say('console.settings.badLine', { line: i + 1 }));
    (wording[said.locale] ??= {})[said.key] = said.message;
  }
  return wording;
}

const back = (team: Team) => `${CONSOLE_PATH}/${team.organizationId}/settings`;
type Refused = { part: Part; message: string; drafts: URLSearchParams } | null;

/** The settings page, with a notice, or with a form's refusal and what was typed. */
async function render(
  site: ConsoleSite,
  v: ConsoleVisit,
  team: Team,
  origin: string,
  notice: string | null,
  refused: Refused = null,
  status = 200,
) {
  const [org, sso] = await Promise.all([
    site.engine.organizations.get(team.organizationId),
    site.engine.workspace(team.organizationId).team.sso(),
  ]);
  const frame: Frame = { ...v.frame, title: say('console.settings.heading'), section: 'settings', team, notice };
  const address = siteAddress(site.engine.team.ssoCallbackUrl(origin));
  return htmlResponse(status, settingsPage(frame, team, org!, sso, address, refused), v.cookies);
}

/** A settings form: its change, then the page with a notice; refused, the page with why (and what was typed, unless `drafts` is false). */
const settingsForm =
  (site: ConsoleSite, part: Part, change: (ctx: ActContext) => Promise<string>, drafts = true) =>
  (event: H3Event) =>
    site.act(event, back, change, (m, err) => {
      const refused = { part, message: err.message, drafts: drafts ? m.form : new URLSearchParams() };
      return render(site, m.v, m.team, event.url.origin, null, refused, statusOf(err));
    });

/** The single sign-on forms: the provider, a domain's check, requiring it, and turning it off. */
const SSO_FORMS: Record<string, { drafts: boolean; change: (site: ConsoleSite, ctx: ActContext) => Promise<string> }> =
  {
    '': {
      drafts: true,
      change: async (site, { form, team, actor }) => {
        const input = {
          issuer: (form.get('issuer') ?? '').trim(),
          clientId: (form.get('clientId') ?? '').trim(),
          clientSecret: form.get('clientSecret') ?? '',
          allowedDomains: lines(form.get('domains')),
        };
        await site.engine.workspace(team.organizationId).team.configureSso(actor, input);
        return 'sso';
      },
    },
    verify: {
      drafts: false,
      change: async (site, { form, team, actor }) => {
        await site.engine.workspace(team.organizationId).team.verifyDomain(actor, form.get('domain') ?? '');
        return 'sso_verified';
      },
    },
    require: {
      drafts: false,
      change: async (site, { form, team, actor }) => {
        const required = form.get('required') === 'on';
        await site.engine.workspace(team.organizationId).team.requireSso(actor, required);
        return required ? 'sso_required' : 'sso_not_required';
      },
    },
    off: {
      drafts: true,
      change: async (site, { team, actor }) => {
        await site.engine.workspace(team.organizationId).team.removeSso(actor);
        return 'sso_off';
      },
    },
  };

/** The settings (owners and admins): the workspace, the portal, its branding, single sign-on; plan and billing shown. */
export function mountSettings(router: H3, site: ConsoleSite): void {
  const path = `${CONSOLE_PATH}/:org/settings`;
  router.get(path, async (event) => {
    const m = await site.manager(event);
    if (m instanceof Response) return m;
    return render(site, m.v, m.team, event.url.origin, noticeOf(event, DONE));
  });
  for (const [part, settingsOf] of Object.entries(PARTS) as Array<
    [Exclude<Part, 'sso'>, (form: URLSearchParams) => WorkspaceSettings]
  >) {
    const change = async ({ form, team, actor }: ActContext) => {
      await site.engine.workspace(team.organizationId).as(actor).updateSettings(settingsOf(form));
      return part;
    };
    router.post(`${path}/${part}`, settingsForm(site, part, change));
  }
  for (const [name, { drafts, change }] of Object.entries(SSO_FORMS))
    router.post(
      `${path}/sso${name ? `/${name}` : ''}`,
      settingsForm(site, 'sso', (ctx) => change(site, ctx), drafts),
    );
}
