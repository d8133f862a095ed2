// The Integrations page: Linear, GitHub and Slack, each with its state, the URL its webhooks go to, the way to connect
// it, its choices (the status mappings, the channel's events) and the way to disconnect it.
import { CONSOLE_PATH, type IntegrationView, type Team } from '../../engine/index.js';
import { html, type SafeHtml } from '../../h3/index.js';
import {
  INTEGRATION_SERVICES,
  type IntegrationService,
  ISSUE_STATES,
  SLACK_NOTICES,
  statusMappingOf,
} from '../../schemas/integrations.js';
import { POST_STATUSES } from '../../schemas/posts.js';
import { csrfField, type Frame, page, when } from './layout.js';
import { say, sayHtml } from './words.js';

/** What the server offers beyond pasted credentials: which services it has an OAuth app for. */
export interface Offers {
  oauth: Record<'linear' | 'slack', boolean>;
}

const name = (s: IntegrationService) => say(`console.integrations.${s}`);
const field = (id: string, label: SafeHtml | string, input: SafeHtml) =>
  html`<label for="${id}">${label}</label>${input}`;
const text = (id: string, n: string, extra: SafeHtml | string = '') =>
  html`<input id="${id}" name="${n}" autocomplete="off" spellcheck="false"${extra}>`;

function state(i: IntegrationView | undefined): SafeHtml {
  if (!i) return html`<p class="muted">${say('console.integrations.notConnected')}</p>`;
  const auth = say(`console.integrations.auth.${i.auth}`);
  const who = i.account
    ? sayHtml('console.integrations.connectedTo', { account: i.account, auth })
    : i.auth === 'incoming_webhook'
      ? html`${say('console.integrations.connectedWith', { auth })}`
      : html`${say('console.integrations.checking', { auth })}`;
  const failing =
    i.status === 'failing'
      ? html`<p>${sayHtml('console.integrations.failing', { at: when(i.lastErrorAt ?? i.updatedAt, 'minute'), error: i.lastError ?? '' })}</p>`
      : '';
  return html`<p>${who}</p>${failing}`;
}

function inbound(i: IntegrationView | undefined, service: IntegrationService): SafeHtml {
  if (!i || (service === 'slack' && i.auth === 'incoming_webhook')) return html``;
  const id = `${service}-inbound`;
  return html`<p>${field(id, say('console.integrations.inbound', { service: name(service) }), html`<input id="${id}" class="wide" readonly value="${i.inboundUrl}">`)}<br><span class="muted">${say('console.integrations.inboundHelp')}</span></p>`;
}

function connectForm(
  frame: Frame,
  base: string,
  service: IntegrationService,
  i: IntegrationView | undefined,
  offers: Offers,
) {
  const p = `${service}-c`;
  const oauth =
    service !== 'github' && offers.oauth[service]
      ? html`<p><a class="button" href="${base}/${service}/oauth">${say('console.integrations.withOAuth', { service: name(service) })}</a></p>`
      : '';
  const fields = {
    linear: html`${field(`${p}-key`, say('console.integrations.apiKey'), text(`${p}-key`, 'apiKey', html.raw` type="password"`))}
${field(`${p}-secret`, say('console.integrations.webhookSecret'), text(`${p}-secret`, 'webhookSecret', html.raw` type="password"`))}`,
    github: html`${field(`${p}-token`, say('console.integrations.token'), text(`${p}-token`, 'token', html.raw` type="password"`))}
<details><summary>${say('console.integrations.orApp')}</summary>
${field(`${p}-app`, say('console.integrations.appId'), text(`${p}-app`, 'appId', html.raw` inputmode="numeric"`))}
${field(`${p}-inst`, say('console.integrations.installationId'), text(`${p}-inst`, 'installationId', html.raw` inputmode="numeric"`))}
${field(`${p}-pem`, say('console.integrations.privateKey'), html`<textarea id="${p}-pem" name="privateKey" rows="4" spellcheck="false"></textarea>`)}
</details>
${field(`${p}-secret`, say('console.integrations.webhookSecret'), text(`${p}-secret`, 'webhookSecret', html.raw` type="password"`))}
${field(`${p}-api`, sayHtml('console.integrations.apiUrl'), text(`${p}-api`, 'apiUrl', html.raw` type="url" placeholder="https://github.example.com/api/v3"`))}`,
    slack: html`${field(`${p}-bot`, say('console.integrations.botToken'), text(`${p}-bot`, 'botToken', html.raw` type="password"`))}
${field(`${p}-signing`, say('console.integrations.signingSecret'), text(`${p}-signing`, 'signingSecret', html.raw` type="password"`))}
${field(`${p}-channel`, say('console.integrations.channel'), text(`${p}-channel`, 'channel', html.raw` placeholder="C0123456789"`))}
<details><summary>${say('console.integrations.orWebhook')}</summary>
${field(`${p}-hook`, say('console.integrations.webhookUrl'), text(`${p}-hook`, 'webhookUrl', html.raw` type="url" placeholder="https://hooks.slack.com/services/…"`))}
</details>`,
  }[service];
  return html`${oauth}<details${i ? '' : html.raw` open`}><summary>${say(i ? 'console.integrations.reconnect' : 'console.integrations.connect')}</summary>
<form method="post" action="${base}/${service}/connect">${csrfField(frame)}${fields}
<p><button type="submit">${say('console.integrations.connect')}</button></p></form></details>`;
}

function mapping(service: 'linear' | 'github', settings: Record<string, unknown>): SafeHtml {
  const map = statusMappingOf(service, settings);
  return html`<fieldset><legend>${say('console.integrations.mapping')}</legend><div class="mapping">${ISSUE_STATES[
    service
  ].map((s) => {
    const id = `${service}-map-${s}`;
    return html`<div><label for="${id}">${say(`console.integrations.state.${s}` as never)}</label><select id="${id}" name="map.${s}"><option value="">${say('console.integrations.noChange')}</option>${POST_STATUSES.map(
      (p) => html`<option value="${p}"${map[s] === p ? html.raw` selected` : ''}>${say(`status.${p}`)}</option>`,
    )}</select></div>`;
  })}</div></fieldset>`;
}

function slackChoices(i: IntegrationView): SafeHtml {
  const s = i.settings;
  const notices = (s.notices as string[] | undefined) ?? [];
  return html`${i.auth === 'bot' ? field('slack-channel', say('console.integrations.channel'), html`<input id="slack-channel" name="channel" value="${String(s.channel ?? '')}">`) : ''}
<fieldset class="tags"><legend>${say('console.integrations.notices')}</legend>${SLACK_NOTICES.map(
    (n) =>
      html`<label class="check"><input type="checkbox" name="notices" value="${n}"${notices.includes(n) ? html.raw` checked` : ''}> ${say(`console.integrations.notice.${n}`)}</label>`,
  )}
<span class="inline-fields">${field('slack-mrr', say('console.integrations.minimumMrr'), html`<input id="slack-mrr" name="minimumMrr" inputmode="numeric" size="8" value="${s.minimumMrr === null || s.minimumMrr === undefined ? '' : String(s.minimumMrr)}">`)}
${field('slack-currency', say('console.integrations.currency'), html`<input id="slack-currency" name="currency" size="4" maxlength="3" value="${String(s.currency ?? 'USD')}">`)}</span></fieldset>`;
}

function choices(frame: Frame, base: string, i: IntegrationView): SafeHtml {
  const inner =
    i.service === 'slack'
      ? slackChoices(i)
      : html`${mapping(i.service, i.settings)}${i.service === 'linear' ? html`<input type="hidden" name="replyComments" value="0"><label class="check"><input type="checkbox" name="replyComments" value="1"${i.settings.replyComments === true ? html.raw` checked` : ''}> ${say('console.integrations.replyComments')}</label>` : ''}`;
  return html`<form method="post" action="${base}/${i.id}/settings">${csrfField(frame)}${inner}<p><button type="submit">${say('console.integrations.save')}</button></p></form>
<details><summary>${say('console.integrations.disconnect')}</summary><form method="post" action="${base}/${i.id}/disconnect">${csrfField(frame)}<label class="check"><input type="checkbox" name="confirm" value="1" required> ${say('console.integrations.disconnectConfirm')}</label> <button type="submit" class="secondary">${say('console.integrations.disconnect')}</button></form></details>`;
}

export function integrationsPage(
  frame: Frame,
  team: Team,
  connected: IntegrationView[],
  offers: Offers,
  refused: { service: string; message: string } | null,
): string {
  const base = `${CONSOLE_PATH}/${team.organizationId}/integrations`;
  const cards = INTEGRATION_SERVICES.map((service) => {
    const i = connected.find((c) => c.service === service);
    return html`<section class="card integration" aria-labelledby="${service}-h"><h2 id="${service}-h">${name(service)}</h2>
<p class="muted">${say(`console.integrations.${service}What`)}</p>
${refused?.service === service ? html`<p class="error" role="alert">${refused.message}</p>` : ''}
${state(i)}${inbound(i, service)}${i ? choices(frame, base, i) : ''}${connectForm(frame, base, service, i, offers)}</section>`;
  });
  return page(
    frame,
    html`<h1>${say('console.integrations.heading')}</h1><p class="muted">${say('console.integrations.intro')}</p>${cards}`,
  );
}
