// The settings page: the workspace, the portal, its branding and single sign-on forms, plan and billing shown.

import {
  CONSOLE_PATH,
  LOCALE_NAMES,
  LOCALES,
  type OrganizationInfo,
  type SsoSettings,
  STEM_LANGUAGES,
  type Team,
} from '../../engine/index.js';
import { html, type SafeHtml } from '../../h3/index.js';
import { csrfField, type Frame, page, when } from './layout.js';
import { say, sayHtml } from './words.js';

/** The settings page's forms, each saving its own fields. */
export type Part = 'workspace' | 'portal' | 'branding' | 'search' | 'languages' | 'sso';

export function settingsPage(
  frame: Frame,
  team: Team,
  org: OrganizationInfo,
  sso: SsoSettings | null,
  origin: { site: string; callback: string },
  refused: { part: Part; message: string; drafts: URLSearchParams } | null,
): string {
  const base = `${CONSOLE_PATH}/${team.organizationId}/settings`;
  const error = (part: Part) =>
    refused?.part === part ? html`<p class="error" role="alert" id="${part}-error">${refused.message}</p>` : '';
  const check = (name: string, on: boolean, label: string) =>
    html`<label class="check"><input type="checkbox" name="${name}" value="on"${on ? html.raw` checked` : ''}> ${label}</label>`;
  // After a refusal, the refused form shows what was typed; the others show what is saved.
  const typed = (part: Part, name: string, saved: string) =>
    refused?.part === part ? (refused.drafts.get(name) ?? '') : saved;
  const ticked = (part: Part, name: string, saved: boolean) =>
    refused?.part === part ? refused.drafts.get(name) === 'on' : saved;
  const portalAddress = org.handle ? `${origin.site}/portal/${org.handle}/` : null;
  const save = html`<p><button type="submit">${say('console.settings.save')}</button></p>`;
  const link = (href: string) => (inside: SafeHtml) => html`<a href="${href}">${inside}</a>`;
  const body = html`<h1>${say('console.settings.heading')}</h1>
<section aria-labelledby="workspace-h"><h2 id="workspace-h">${say('console.settings.workspace')}</h2>${error('workspace')}
<form method="post" action="${base}/workspace">${csrfField(frame)}
<label for="s-name">${say('console.settings.name')}</label><input id="s-name" name="name" required maxlength="200" value="${typed('workspace', 'name', org.name)}">
<label for="s-admins">${sayHtml('console.settings.admins')}</label>
<textarea id="s-admins" name="adminEmails" rows="3">${typed('workspace', 'adminEmails', org.adminEmails.join('\n'))}</textarea>
${save}</form>
<table class="facts"><caption class="muted">${sayHtml('console.settings.operator')}</caption><tbody>
<tr><th scope="row">${say('console.settings.plan')}</th><td>${org.plan}</td></tr>
<tr><th scope="row">${say('console.settings.billing')}</th><td>${org.billingState === 'read_only' ? html`<span class="held">${say('console.settings.readOnly')}</span>` : say('console.settings.active')}</td></tr>
<tr><th scope="row">${say('console.settings.contacts')}</th><td>${org.contactCap === null ? say('console.settings.unlimited') : say('console.settings.atMost', { count: org.contactCap })}</td></tr>
<tr><th scope="row">${say('console.settings.requests')}</th><td>${say('console.settings.perMinute', { count: org.rateLimit })}</td></tr>
</tbody></table></section>

<section aria-labelledby="portal-h"><h2 id="portal-h">${say('console.settings.portal')}</h2>${error('portal')}
${portalAddress && org.portalEnabled ? html`<p>${sayHtml('console.settings.portalAt', { address: portalAddress }, { link: link(portalAddress) })}</p>` : html`<p class="muted">${say('console.settings.portalOff')}</p>`}
<form method="post" action="${base}/portal">${csrfField(frame)}
<label for="s-handle">${sayHtml('console.settings.handle')}</label><input id="s-handle" name="handle" maxlength="40" value="${typed('portal', 'handle', org.handle ?? '')}">
${check('portalEnabled', ticked('portal', 'portalEnabled', org.portalEnabled), say('console.settings.portalOn'))}
${check('portalModeration', ticked('portal', 'portalModeration', org.portalModeration), say('console.settings.moderation'))}
${check('portalVerifiedOnly', ticked('portal', 'portalVerifiedOnly', org.portalVerifiedOnly), say('console.settings.verifiedOnly'))}
${check('notifyAdminCreated', ticked('portal', 'notifyAdminCreated', org.notifyAdminCreated), say('console.settings.notifyAdminCreated'))}
<label for="s-frames">${sayHtml('console.settings.frames')}</label>
<textarea id="s-frames" name="portalFrameOrigins" rows="3">${typed('portal', 'portalFrameOrigins', org.portalFrameOrigins.join('\n'))}</textarea>
${save}</form></section>

<section aria-labelledby="branding-h"><h2 id="branding-h">${say('console.settings.branding')}</h2>${error('branding')}
<form method="post" action="${base}/branding">${csrfField(frame)}
<label for="s-logo">${sayHtml('console.settings.logo')}</label><input id="s-logo" name="portalLogoUrl" type="url" size="60" value="${typed('branding', 'portalLogoUrl', org.portalLogoUrl ?? '')}">
<label for="s-accent">${sayHtml('console.settings.accent')}</label><input id="s-accent" name="portalAccent" type="color" value="${typed('branding', 'portalAccent', org.portalAccent ?? '#1d4ed8')}">
${check('resetAccent', false, say('console.settings.defaultColour'))}
${save}</form></section>

<section aria-labelledby="search-h"><h2 id="search-h">${say('console.settings.search')}</h2>${error('search')}
<p class="muted">${sayHtml('console.settings.searchIntro')}</p>
<form method="post" action="${base}/search">${csrfField(frame)}
<label for="s-stems">${say('console.settings.stems')}</label><select id="s-stems" name="searchStems">${STEM_LANGUAGES.map((l) => html`<option value="${l}"${typed('search', 'searchStems', org.searchStems) === l ? html.raw` selected` : ''}>${l === 'none' ? say('console.settings.stemsNone') : l}</option>`)}</select>
<label for="s-synonyms">${sayHtml('console.settings.synonyms')}</label>
<textarea id="s-synonyms" name="searchSynonyms" rows="4">${typed('search', 'searchSynonyms', org.searchSynonyms.map((g) => g.join(', ')).join('\n'))}</textarea>
${save}</form></section>

${languagesPart(frame, base, org, error('languages'), (name, saved) => typed('languages', name, saved))}

<section aria-labelledby="sso-h"><h2 id="sso-h">${say('console.settings.sso')}</h2>${error('sso')}
<p class="muted wrap-anywhere">${sayHtml('console.settings.ssoIntro', { callback: origin.callback })}</p>
${sso ? ssoState(frame, base, sso, origin.site) : html`<p>${say('console.settings.off')}</p>`}
<form method="post" action="${base}/sso">${csrfField(frame)}
<label for="s-issuer">${say('console.settings.issuer')}</label><input id="s-issuer" name="issuer" type="url" size="60" required value="${typed('sso', 'issuer', sso?.issuer ?? '')}" placeholder="https://accounts.google.com">
<label for="s-client">${say('console.settings.clientId')}</label><input id="s-client" name="clientId" required size="60" value="${typed('sso', 'clientId', sso?.clientId ?? '')}">
<label for="s-secret">${sayHtml('console.settings.clientSecret', { again: sso ? 'yes' : 'no' })}</label><input id="s-secret" name="clientSecret" type="password" required autocomplete="off" size="60">
<label for="s-domains">${sayHtml('console.settings.domains')}</label><textarea id="s-domains" name="domains" rows="2" required>${typed('sso', 'domains', sso?.domains.map((d) => d.domain).join('\n') ?? '')}</textarea>
<p><button type="submit">${say('console.settings.saveSso')}</button></p></form>
${sso ? html`<form method="post" action="${base}/sso/off">${csrfField(frame)}<button type="submit" class="secondary">${say('console.settings.ssoOff')}</button></form>` : ''}
</section>`;
  return page(frame, body);
}

/** The wording as the form shows it: a line per message, `language:message=your words`. */
const wordingLines = (wording: Record<string, Record<string, string>>) =>
  Object.entries(wording)
    .flatMap(([locale, messages]) => Object.entries(messages).map(([key, text]) => `${locale}:${key}=${text}`))
    .join('\n');

/** The languages form: the workspace's default language and its own words (docs/portal.md). */
function languagesPart(
  frame: Frame,
  base: string,
  org: OrganizationInfo,
  error: SafeHtml | string,
  typed: (name: string, saved: string) => string,
) {
  return html`<section aria-labelledby="languages-h"><h2 id="languages-h">${say('console.settings.languages')}</h2>${error}
<p class="muted">${say('console.settings.languagesIntro', { names: LOCALES.map((l) => LOCALE_NAMES[l]).join(', ') })}</p>
<form method="post" action="${base}/languages">${csrfField(frame)}
<label for="s-locale">${say('console.settings.defaultLanguage')}</label><select id="s-locale" name="locale">${LOCALES.map((l) => html`<option value="${l}" lang="${l}"${typed('locale', org.locale) === l ? html.raw` selected` : ''}>${LOCALE_NAMES[l]}</option>`)}</select>
<label for="s-wording">${sayHtml('console.settings.wording')}</label>
<textarea id="s-wording" name="portalWording" rows="4">${typed('portalWording', wordingLines(org.portalWording))}</textarea>
<p><button type="submit">${say('console.settings.save')}</button></p></form></section>`;
}

/**
 * Single sign-on as it is: the provider, the workspace's own sign-in page, each domain (verified, or the TXT record that
 * proves it and a button to check it), and whether it is required for the verified domains' people.
 */
function ssoState(frame: Frame, base: string, sso: SsoSettings, site: string) {
  const signInPage = `${site}${CONSOLE_PATH}/${frame.team!.organizationId}/sign-in`;
  const anyVerified = sso.domains.some((d) => d.verified);
  return html`<div class="wrap-anywhere"><p>${sayHtml('console.settings.ssoOn', { issuer: sso.issuer, client: sso.clientId })}</p>
<p>${sayHtml('console.settings.ownPage', { page: signInPage }, { link: (inside) => html`<a href="${signInPage}">${inside}</a>` })}</p>
<table class="facts"><caption class="muted">${say('console.settings.domainsCaption')}</caption><tbody>
${sso.domains.map(
  (d) =>
    html`<tr><th scope="row">${d.domain}</th><td>${
      d.verified
        ? sayHtml('console.settings.verified', {
            by: d.verifiedBy === 'operator' ? 'operator' : 'dns',
            at: d.verifiedAt ? when(d.verifiedAt) : 'none',
          })
        : html`${sayHtml('console.settings.notVerified', { name: d.record.name, value: d.record.value })}
<form method="post" action="${base}/sso/verify" class="inline">${csrfField(frame)}<input type="hidden" name="domain" value="${d.domain}"><button type="submit" class="secondary">${say('console.settings.check', { domain: d.domain })}</button></form>`
    }</td></tr>`,
)}
</tbody></table>
<form method="post" action="${base}/sso/require">${csrfField(frame)}
<label class="check"><input type="checkbox" name="required" value="on"${sso.required ? html.raw` checked` : ''}${anyVerified || sso.required ? '' : html.raw` disabled`}> ${say('console.settings.require', { verified: anyVerified ? 'yes' : 'no' })}</label>
<p><button type="submit" class="secondary">${say('console.settings.save')}</button></p></form></div>`;
}
