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
  const body = html`<h1>Settings</h1>
<section aria-labelledby="workspace-h"><h2 id="workspace-h">Workspace</h2>${error('workspace')}
<form method="post" action="${base}/workspace">${csrfField(frame)}
<label for="s-name">Name</label><input id="s-name" name="name" required maxlength="200" value="${typed('workspace', 'name', org.name)}">
<label for="s-admins">Admin addresses <span class="muted">(one per line: they get notices such as a disabled webhook)</span></label>
<textarea id="s-admins" name="adminEmails" rows="3">${typed('workspace', 'adminEmails', org.adminEmails.join('\n'))}</textarea>
<p><button type="submit">Save</button></p></form>
<table class="facts"><caption class="muted">Set by whoever runs this server (<code>feedback-service org update</code>)</caption><tbody>
<tr><th scope="row">Plan</th><td>${org.plan}</td></tr>
<tr><th scope="row">Billing</th><td>${org.billingState === 'read_only' ? html`<span class="held">read only: changes through the API are refused</span>` : 'active'}</td></tr>
<tr><th scope="row">Contacts</th><td>${org.contactCap === null ? 'unlimited' : `at most ${org.contactCap.toLocaleString('en')}`}</td></tr>
<tr><th scope="row">API requests</th><td>${org.rateLimit} a minute per key</td></tr>
</tbody></table></section>

<section aria-labelledby="portal-h"><h2 id="portal-h">Portal</h2>${error('portal')}
${portalAddress && org.portalEnabled ? html`<p>The portal is at <a href="${portalAddress}">${portalAddress}</a>.</p>` : html`<p class="muted">The portal is off.</p>`}
<form method="post" action="${base}/portal">${csrfField(frame)}
<label for="s-handle">Handle <span class="muted">(its address: /portal/<em>handle</em>/; lower-case letters, digits and dashes)</span></label><input id="s-handle" name="handle" maxlength="40" value="${typed('portal', 'handle', org.handle ?? '')}">
${check('portalEnabled', ticked('portal', 'portalEnabled', org.portalEnabled), 'The portal is on')}
${check('portalModeration', ticked('portal', 'portalModeration', org.portalModeration), 'Hold posts by people who are not signed in with your token until someone approves them')}
${check('portalVerifiedOnly', ticked('portal', 'portalVerifiedOnly', org.portalVerifiedOnly), 'Only people signed in with your token may post, vote and comment')}
${check('notifyAdminCreated', ticked('portal', 'notifyAdminCreated', org.notifyAdminCreated), 'Mail contacts added by hand (you attest a lawful basis when adding each)')}
<label for="s-frames">Sites that may frame the portal <span class="muted">(the widget; one origin per line, e.g. https://app.example.com)</span></label>
<textarea id="s-frames" name="portalFrameOrigins" rows="3">${typed('portal', 'portalFrameOrigins', org.portalFrameOrigins.join('\n'))}</textarea>
<p><button type="submit">Save</button></p></form></section>

<section aria-labelledby="branding-h"><h2 id="branding-h">Branding</h2>${error('branding')}
<form method="post" action="${base}/branding">${csrfField(frame)}
<label for="s-logo">Logo <span class="muted">(the https address of an image, shown in the portal’s header; empty for the name alone)</span></label><input id="s-logo" name="portalLogoUrl" type="url" size="60" value="${typed('branding', 'portalLogoUrl', org.portalLogoUrl ?? '')}">
<label for="s-accent">Accent colour <span class="muted">(links and buttons; dark enough to read on white)</span></label><input id="s-accent" name="portalAccent" type="color" value="${typed('branding', 'portalAccent', org.portalAccent ?? '#1d4ed8')}">
${check('resetAccent', false, 'Use the default colour')}
<p><button type="submit">Save</button></p></form></section>

<section aria-labelledby="search-h"><h2 id="search-h">Search</h2>${error('search')}
<p class="muted">How searches on the portal and here forgive what people type: a word also finds its stem's words (<em>exporting</em> finds <em>export</em>), and a word of five letters or more one typo away (<em>dashbord</em>). What was typed comes first.</p>
<form method="post" action="${base}/search">${csrfField(frame)}
<label for="s-stems">Language of the words' stems</label><select id="s-stems" name="searchStems">${STEM_LANGUAGES.map((l) => html`<option value="${l}"${typed('search', 'searchStems', org.searchStems) === l ? html.raw` selected` : ''}>${l === 'none' ? 'none (words as written)' : l}</option>`)}</select>
<label for="s-synonyms">Synonyms <span class="muted">(one group a line, separated by commas: each finds the others, e.g. sso, single sign-on, saml)</span></label>
<textarea id="s-synonyms" name="searchSynonyms" rows="4">${typed('search', 'searchSynonyms', org.searchSynonyms.map((g) => g.join(', ')).join('\n'))}</textarea>
<p><button type="submit">Save</button></p></form></section>

${languagesPart(frame, base, org, error('languages'), (name, saved) => typed('languages', name, saved))}

<section aria-labelledby="sso-h"><h2 id="sso-h">Single sign-on</h2>${error('sso')}
<p class="muted wrap-anywhere">OpenID Connect (Google Workspace, Okta, Entra ID, Keycloak...). Register a web application at your provider with the redirect URI <code>${origin.callback}</code>. Single sign-on signs in people on the team; it does not add anyone.</p>
${sso ? ssoState(frame, base, sso, origin.site) : html`<p>Off.</p>`}
<form method="post" action="${base}/sso">${csrfField(frame)}
<label for="s-issuer">Issuer</label><input id="s-issuer" name="issuer" type="url" size="60" required value="${typed('sso', 'issuer', sso?.issuer ?? '')}" placeholder="https://accounts.google.com">
<label for="s-client">Client id</label><input id="s-client" name="clientId" required size="60" value="${typed('sso', 'clientId', sso?.clientId ?? '')}">
<label for="s-secret">Client secret <span class="muted">(${sso ? 'type it again to save a change: it is never shown' : 'sealed at rest, never shown'})</span></label><input id="s-secret" name="clientSecret" type="password" required autocomplete="off" size="60">
<label for="s-domains">Email domains that sign in this way <span class="muted">(one per line)</span></label><textarea id="s-domains" name="domains" rows="2" required>${typed('sso', 'domains', sso?.domains.map((d) => d.domain).join('\n') ?? '')}</textarea>
<p><button type="submit">Save single sign-on</button></p></form>
${sso ? html`<form method="post" action="${base}/sso/off">${csrfField(frame)}<button type="submit" class="secondary">Turn single sign-on off</button></form>` : ''}
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
  return html`<section aria-labelledby="languages-h"><h2 id="languages-h">Languages</h2>${error}
<p class="muted">The portal, the widget and their mail speak each person's language: the one they chose (or your app gives), else their browser's, else the default below. Ten languages: ${LOCALES.map((l) => LOCALE_NAMES[l]).join(', ')}.</p>
<form method="post" action="${base}/languages">${csrfField(frame)}
<label for="s-locale">Default language</label><select id="s-locale" name="locale">${LOCALES.map((l) => html`<option value="${l}" lang="${l}"${typed('locale', org.locale) === l ? html.raw` selected` : ''}>${LOCALE_NAMES[l]}</option>`)}</select>
<label for="s-wording">Your own words <span class="muted">(one a line, language:message=your words, e.g. de:board.newPost=Idee einreichen; the messages' names are in the portal's guide)</span></label>
<textarea id="s-wording" name="portalWording" rows="4">${typed('portalWording', wordingLines(org.portalWording))}</textarea>
<p><button type="submit">Save</button></p></form></section>`;
}

/**
 * Single sign-on as it is: the provider, the workspace's own sign-in page, each domain (verified, or the TXT record that
 * proves it and a button to check it), and whether it is required for the verified domains' people.
 */
function ssoState(frame: Frame, base: string, sso: SsoSettings, site: string) {
  const signInPage = `${site}${CONSOLE_PATH}/${frame.team!.organizationId}/sign-in`;
  const anyVerified = sso.domains.some((d) => d.verified);
  return html`<div class="wrap-anywhere"><p>On: <code>${sso.issuer}</code> (client <code>${sso.clientId}</code>).</p>
<p>Your workspace's sign-in page: <a href="${signInPage}">${signInPage}</a>. Single sign-on works there for every domain below. The shared sign-in page sends an address to your provider only once its domain is verified, which proves the domain is yours.</p>
<table class="facts"><caption class="muted">Domains</caption><tbody>
${sso.domains.map(
  (d) =>
    html`<tr><th scope="row">${d.domain}</th><td>${
      d.verified
        ? html`Verified (${d.verifiedBy === 'operator' ? 'by whoever runs this server' : 'DNS'}${d.verifiedAt ? html`, ${when(d.verifiedAt)}` : ''})`
        : html`Not verified. Add a TXT record <code>${d.record.name}</code> with the value <code>${d.record.value}</code> at your DNS provider, then
<form method="post" action="${base}/sso/verify" class="inline">${csrfField(frame)}<input type="hidden" name="domain" value="${d.domain}"><button type="submit" class="secondary">Check ${d.domain}</button></form>`
    }</td></tr>`,
)}
</tbody></table>
<form method="post" action="${base}/sso/require">${csrfField(frame)}
<label class="check"><input type="checkbox" name="required" value="on"${sso.required ? html.raw` checked` : ''}${anyVerified || sso.required ? '' : html.raw` disabled`}> Require single sign-on for people of the verified domains: no emailed codes for their addresses in this workspace${anyVerified ? '' : ' (verify a domain first)'}</label>
<p><button type="submit" class="secondary">Save</button></p></form></div>`;
}
