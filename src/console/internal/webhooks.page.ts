// The webhooks pages: the list with each one's state and the form to add one, and a webhook's page with its delivery log.

import { CONSOLE_PATH, deliveryHeaders, type Team } from '../../engine/index.js';
import { html, type SafeHtml } from '../../h3/index.js';
import { EVENT_KINDS } from '../../schemas/events.js';
import { type Delivery, WEBHOOK_LIMITS, type Webhook } from '../../schemas/webhooks.js';
import { csrfField, type Frame, page, when } from './layout.js';
import { say, sayHtml } from './words.js';

/** A webhook's state in words: enabled (with failures so far), or disabled and why. */
function stateOf(w: Webhook, failures: number): SafeHtml {
  if (w.enabled)
    return failures
      ? sayHtml('console.webhooks.enabledFailing', { failures })
      : html`${say('console.webhooks.enabled')}`;
  const why =
    failures >= WEBHOOK_LIMITS.consecutiveFailures
      ? say('console.webhooks.afterFailures', { failures })
      : say('console.webhooks.byHand');
  return html`${sayHtml('console.webhooks.disabled')} ${w.disabledAt ? sayHtml('console.webhooks.disabledOn', { at: when(w.disabledAt, 'second') }) : ''} ${why}`;
}

/** The event kinds as checkboxes, those given ticked. */
function eventBoxes(checked: readonly string[]): SafeHtml {
  return html`<fieldset class="tags"><legend>${say('console.webhooks.events')}</legend>${EVENT_KINDS.map(
    (k) =>
      html`<label class="check"><input type="checkbox" name="events" value="${k}"${checked.includes(k) ? html.raw` checked` : ''}> <code>${k}</code></label>`,
  )}</fieldset>`;
}

export function listPage(
  frame: Frame,
  team: Team,
  hooks: Webhook[],
  failures: Map<string, number>,
  refused: { message: string; drafts: URLSearchParams } | null,
): string {
  const base = `${CONSOLE_PATH}/${team.organizationId}/webhooks`;
  const d = refused?.drafts;
  const body = html`<h1>${say('console.webhooks.heading')}</h1>
<p class="muted">${sayHtml('console.webhooks.intro', { failures: WEBHOOK_LIMITS.consecutiveFailures })}</p>
${
  hooks.length
    ? html`<table><thead><tr><th scope="col">${say('console.webhooks.receiver')}</th><th scope="col">${say('console.webhooks.eventsColumn')}</th><th scope="col">${say('console.webhooks.state')}</th><th scope="col">${say('console.webhooks.added')}</th></tr></thead>
<tbody>${hooks.map(
        (w) =>
          html`<tr><td class="long"><a href="${base}/${w.id}">${w.url}</a>${w.description ? html`<br><span class="muted">${w.description}</span>` : ''}</td><td>${w.events.length === EVENT_KINDS.length ? say('console.webhooks.all') : w.events.length}</td><td>${stateOf(w, failures.get(w.id) ?? 0)}</td><td>${when(w.createdAt, 'second')}</td></tr>`,
      )}</tbody></table>`
    : html`<p>${say('console.webhooks.none')}</p>`
}
<section aria-labelledby="new-h"><h2 id="new-h">${say('console.webhooks.add')}</h2>
${refused ? html`<p class="error" role="alert" id="webhook-error">${refused.message}</p>` : ''}
<form method="post" action="${base}">${csrfField(frame)}
<label for="w-url">${say('console.webhooks.url')}</label><input id="w-url" name="url" type="url" required size="60" placeholder="https://example.com/hooks/feedback" value="${d?.get('url') ?? ''}"${refused ? html.raw` aria-describedby="webhook-error"` : ''}>
<label for="w-description">${sayHtml('console.webhooks.descriptionOptional')}</label><input id="w-description" name="description" size="60" value="${d?.get('description') ?? ''}">
${eventBoxes(d ? d.getAll('events') : EVENT_KINDS)}
<p><button type="submit">${say('console.webhooks.addSubmit')}</button></p></form></section>`;
  return page(frame, body);
}

function attemptsOf(d: Delivery): SafeHtml {
  if (!d.attempts.length) return html`<span class="muted">${say('console.webhooks.notAttempted')}</span>`;
  return html`<ol class="attempts">${d.attempts.map(
    (a) =>
      html`<li>${when(a.attemptedAt, 'second')} · ${a.statusCode ?? say('console.webhooks.noResponse')} · ${say('console.webhooks.ms', { ms: a.durationMs })}${a.error ? html` · <span class="held">${a.error}</span>` : ''}${
        a.responseBody
          ? html`<details><summary>${say('console.webhooks.response')}</summary><pre>${a.responseBody}</pre></details>`
          : ''
      }</li>`,
  )}</ol>`;
}

/**
 * What a delivery sent: its headers (the signature's value left out: it is the body's HMAC under the signing secret,
 * made again at each attempt) and its exact body, pretty-printed. The signing secret is never on any page but the one
 * that created it.
 */
function sent(d: Delivery): SafeHtml {
  const headers = deliveryHeaders(d.event, d.id, 't=<the attempt’s time>,v1=<HMAC-SHA256 of the body, not shown>');
  const body = JSON.stringify(d.payload, null, 2);
  return html`<details class="sent"><summary>${sayHtml('console.webhooks.payload', { id: d.id })}</summary>
<pre class="payload">${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n')}</pre>
<pre class="payload">${body}</pre></details>`;
}

export function webhookPage(
  frame: Frame,
  team: Team,
  w: Webhook,
  failures: number,
  deliveries: Delivery[],
  next: string | null,
  refused: string | null,
): string {
  const base = `${CONSOLE_PATH}/${team.organizationId}/webhooks/${w.id}`;
  const toggle = w.enabled
    ? html`<form method="post" action="${base}/disable" class="inline">${csrfField(frame)}<button type="submit" class="secondary">${say('console.webhooks.disable')}</button></form>`
    : html`<form method="post" action="${base}/enable" class="inline">${csrfField(frame)}<button type="submit">${say('console.webhooks.enable')}</button></form> <span class="muted">${say('console.webhooks.resets')}</span>`;
  const body = html`<p class="crumbs"><a href="${CONSOLE_PATH}/${team.organizationId}/webhooks">${say('console.webhooks.heading')}</a></p>
<h1 class="long">${w.url}</h1>
${refused ? html`<p class="error" role="alert">${refused}</p>` : ''}
<p>${stateOf(w, failures)} ${toggle}</p>
<details${refused ? html.raw` open` : ''}><summary>${say('console.webhooks.edit')}</summary>
<form method="post" action="${base}">${csrfField(frame)}
<label for="w-url">${say('console.webhooks.url')}</label><input id="w-url" name="url" type="url" required size="60" value="${w.url}">
<label for="w-description">${say('console.webhooks.description')}</label><input id="w-description" name="description" size="60" value="${w.description ?? ''}">
${eventBoxes(w.events)}
<p><button type="submit">${say('console.webhooks.save')}</button></p></form>
<form method="post" action="${base}/delete">${csrfField(frame)}<label class="check"><input type="checkbox" name="confirm" value="1" required> ${say('console.webhooks.deleteConfirm')}</label> <button type="submit" class="secondary">${say('console.webhooks.delete')}</button></form>
</details>
<h2>${sayHtml('console.webhooks.deliveries')}</h2>
${
  deliveries.length
    ? html`<table class="deliveries"><thead><tr><th scope="col">${say('console.webhooks.event')}</th><th scope="col">${say('console.webhooks.created')}</th><th scope="col">${say('console.webhooks.state')}</th><th scope="col">${say('console.webhooks.attempts')}</th><th scope="col"><span class="sr-only">${say('console.webhooks.replayColumn')}</span></th></tr></thead>
<tbody>${deliveries.map(
        (d) =>
          html`<tr><td><code>${d.event}</code><br><span class="muted">${d.id}${d.replayOf ? say('console.webhooks.replays', { id: d.replayOf }) : ''}</span></td><td class="when">${when(d.createdAt, 'second')}</td><td>${d.status}${d.failureReason ? html`<br><span class="muted">${d.failureReason}</span>` : ''}</td><td class="long">${attemptsOf(d)}${sent(d)}</td><td>${
            d.status === 'pending'
              ? ''
              : html`<form method="post" action="${base}/deliveries/${d.id}/replay">${csrfField(frame)}<button type="submit" class="secondary">${sayHtml('console.webhooks.replay', { id: d.id })}</button></form>`
          }</td></tr>`,
      )}</tbody></table>`
    : html`<p>${say('console.webhooks.noDeliveries')}</p>`
}
${next ? html`<p class="pager"><a href="${base}?cursor=${next}" rel="next">${say('console.webhooks.older')}</a></p>` : ''}`;
  return page(frame, body);
}
