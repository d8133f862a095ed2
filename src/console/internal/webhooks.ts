import { html, type SafeHtml } from '@remix-run/html-template';
import { getRouterParams, type H3, type H3Event } from 'h3';
import { CONSOLE_PATH, FeedbackError, type Team } from '../../engine/index.js';
import { htmlResponse } from '../../h3/index.js';
import { EVENT_KINDS } from '../../schemas/events.js';
import { type Delivery, type UpdateWebhookBody, WEBHOOK_LIMITS, type Webhook } from '../../schemas/webhooks.js';
import { csrfField, type Frame, page, shownOnce, when } from './layout.js';
import { type ConsoleSite, type ConsoleVisit, statusOf } from './site.js';

const DONE: Record<string, string> = {
  saved: 'Webhook saved.',
  enabled:
    'Enabled: its failure count is back to zero, and new events are delivered again. Replay what it missed below.',
  disabled: 'Disabled: its pending deliveries ended as failed; replay them once it is enabled again.',
  deleted: 'Webhook deleted, with its delivery log.',
  replayed: 'Replay queued: a new delivery of the same event, due now.',
};

/** A webhook's state in words: enabled (with failures so far), or disabled and why. */
function stateOf(w: Webhook, failures: number): SafeHtml {
  if (w.enabled)
    return failures
      ? html`Enabled <span class="held">${failures} failed ${failures === 1 ? 'attempt' : 'attempts'} in a row</span>`
      : html`Enabled`;
  const why =
    failures >= WEBHOOK_LIMITS.consecutiveFailures ? `after ${failures} consecutive failed attempts` : 'by hand';
  return html`<span class="held">Disabled</span> ${w.disabledAt ? html`on ${when(w.disabledAt, 'second')}` : ''} ${why}`;
}

/** The event kinds as checkboxes, those given ticked. */
function eventBoxes(checked: readonly string[]): SafeHtml {
  return html`<fieldset class="tags"><legend>Events it receives</legend>${EVENT_KINDS.map(
    (k) =>
      html`<label class="check"><input type="checkbox" name="events" value="${k}"${checked.includes(k) ? html.raw` checked` : ''}> <code>${k}</code></label>`,
  )}</fieldset>`;
}

function listPage(
  frame: Frame,
  team: Team,
  hooks: Webhook[],
  failures: Map<string, number>,
  refused: { message: string; drafts: URLSearchParams } | null,
): string {
  const base = `${CONSOLE_PATH}/${team.organizationId}/webhooks`;
  const d = refused?.drafts;
  const body = html`<h1>Webhooks</h1>
<p class="muted">Signed HTTP events to your receivers (verify them with <code>feedback-service/verify</code>). A webhook is disabled after ${WEBHOOK_LIMITS.consecutiveFailures} failed attempts in a row; the workspace’s admin addresses are mailed when that happens.</p>
${
  hooks.length
    ? html`<table><thead><tr><th scope="col">Receiver</th><th scope="col">Events</th><th scope="col">State</th><th scope="col">Added</th></tr></thead>
<tbody>${hooks.map(
        (w) =>
          html`<tr><td class="long"><a href="${base}/${w.id}">${w.url}</a>${w.description ? html`<br><span class="muted">${w.description}</span>` : ''}</td><td>${w.events.length === EVENT_KINDS.length ? 'all' : w.events.length}</td><td>${stateOf(w, failures.get(w.id) ?? 0)}</td><td>${when(w.createdAt, 'second')}</td></tr>`,
      )}</tbody></table>`
    : html`<p>No webhooks yet.</p>`
}
<section aria-labelledby="new-h"><h2 id="new-h">Add a webhook</h2>
${refused ? html`<p class="error" role="alert" id="webhook-error">${refused.message}</p>` : ''}
<form method="post" action="${base}">${csrfField(frame)}
<label for="w-url">Receiver URL</label><input id="w-url" name="url" type="url" required size="60" placeholder="https://example.com/hooks/feedback" value="${d?.get('url') ?? ''}"${refused ? html.raw` aria-describedby="webhook-error"` : ''}>
<label for="w-description">Description <span class="muted">(optional)</span></label><input id="w-description" name="description" size="60" value="${d?.get('description') ?? ''}">
${eventBoxes(d ? d.getAll('events') : EVENT_KINDS)}
<p><button type="submit">Add the webhook</button></p></form></section>`;
  return page(frame, body);
}

function attemptsOf(d: Delivery): SafeHtml {
  if (!d.attempts.length) return html`<span class="muted">not attempted yet</span>`;
  return html`<ol class="attempts">${d.attempts.map(
    (a) =>
      html`<li>${when(a.attemptedAt, 'second')} · ${a.statusCode ?? 'no response'} · ${a.durationMs} ms${a.error ? html` · <span class="held">${a.error}</span>` : ''}${
        a.responseBody ? html`<details><summary>Response</summary><pre>${a.responseBody}</pre></details>` : ''
      }</li>`,
  )}</ol>`;
}

function webhookPage(
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
    ? html`<form method="post" action="${base}/disable" class="inline">${csrfField(frame)}<button type="submit" class="secondary">Disable</button></form>`
    : html`<form method="post" action="${base}/enable" class="inline">${csrfField(frame)}<button type="submit">Enable again</button></form> <span class="muted">(resets the failure count)</span>`;
  const body = html`<p class="crumbs"><a href="${CONSOLE_PATH}/${team.organizationId}/webhooks">Webhooks</a></p>
<h1 class="long">${w.url}</h1>
${refused ? html`<p class="error" role="alert">${refused}</p>` : ''}
<p>${stateOf(w, failures)} ${toggle}</p>
<details${refused ? html.raw` open` : ''}><summary>Edit</summary>
<form method="post" action="${base}">${csrfField(frame)}
<label for="w-url">Receiver URL</label><input id="w-url" name="url" type="url" required size="60" value="${w.url}">
<label for="w-description">Description</label><input id="w-description" name="description" size="60" value="${w.description ?? ''}">
${eventBoxes(w.events)}
<p><button type="submit">Save</button></p></form>
<form method="post" action="${base}/delete">${csrfField(frame)}<label class="check"><input type="checkbox" name="confirm" value="1" required> Delete this webhook and its delivery log</label> <button type="submit" class="secondary">Delete</button></form>
</details>
<h2>Deliveries <span class="muted">(newest first)</span></h2>
${
  deliveries.length
    ? html`<table class="audit"><thead><tr><th scope="col">Event</th><th scope="col">Created</th><th scope="col">State</th><th scope="col">Attempts</th><th scope="col"><span class="sr-only">Replay</span></th></tr></thead>
<tbody>${deliveries.map(
        (d) =>
          html`<tr><td><code>${d.event}</code><br><span class="muted">${d.id}${d.replayOf ? ` (replays ${d.replayOf})` : ''}</span></td><td class="when">${when(d.createdAt, 'second')}</td><td>${d.status}${d.failureReason ? html`<br><span class="muted">${d.failureReason}</span>` : ''}</td><td class="long">${attemptsOf(d)}</td><td>${
            d.status === 'pending'
              ? ''
              : html`<form method="post" action="${base}/deliveries/${d.id}/replay">${csrfField(frame)}<button type="submit" class="secondary">Replay<span class="sr-only"> ${d.id}</span></button></form>`
          }</td></tr>`,
      )}</tbody></table>`
    : html`<p>No deliveries yet.</p>`
}
${next ? html`<p class="pager"><a href="${base}?cursor=${next}" rel="next">Older deliveries</a></p>` : ''}`;
  return page(frame, body);
}

/** The body of a create or an edit from the form. */
const webhookBody = (form: URLSearchParams) => ({
  url: (form.get('url') ?? '').trim(),
  events: form.getAll('events') as Webhook['events'],
  description: form.get('description')?.trim() || null,
});

/** The webhooks (owners and admins): the list with each one's state, adding one (its secret shown once), a webhook's page with its delivery log. */
export function mountWebhooks(router: H3, site: ConsoleSite): void {
  const list = `${CONSOLE_PATH}/:org/webhooks`;
  const hookOf = (event: H3Event) => getRouterParams(event).webhook ?? '';
  const frameOf = (v: ConsoleVisit, team: Team, title: string, notice: string | null = null): Frame => ({
    ...v.frame,
    title,
    section: 'webhooks',
    team,
    notice,
  });
  const renderList = async (
    v: ConsoleVisit,
    team: Team,
    notice: string | null,
    refused: { message: string; drafts: URLSearchParams } | null = null,
    status = 200,
  ) => {
    const service = site.engine.workspace(team.organizationId).webhooks;
    const [hooks, failures] = await Promise.all([service.list({ limit: 100 }), service.failureCounts()]);
    return htmlResponse(
      status,
      listPage(frameOf(v, team, 'Webhooks', notice), team, hooks.data, failures, refused),
      v.cookies,
    );
  };
  const renderHook = async (
    v: ConsoleVisit,
    team: Team,
    id: string,
    cursor: string | undefined,
    notice: string | null,
    refused: string | null = null,
    status = 200,
  ) => {
    const service = site.engine.workspace(team.organizationId).webhooks;
    let hook: Webhook;
    try {
      hook = await service.retrieve(id);
    } catch (err) {
      if (err instanceof FeedbackError && err.code === 'ERR_NOT_FOUND')
        return site.notFound(v, 'There is no such webhook in this workspace.');
      throw err;
    }
    // A cursor that is not one (typed or stale) shows the first page.
    const log = await service.listDeliveries(id, { cursor, limit: 25 }).catch((err: unknown) => {
      if (err instanceof FeedbackError && err.code === 'ERR_VALIDATION')
        return service.listDeliveries(id, { limit: 25 });
      throw err;
    });
    const failures = (await service.failureCounts()).get(id) ?? 0;
    return htmlResponse(
      status,
      webhookPage(frameOf(v, team, 'Webhook', notice), team, hook, failures, log.data, log.nextCursor, refused),
      v.cookies,
    );
  };

  router.get(list, async (event) => {
    const m = await site.manager(event);
    if (m instanceof Response) return m;
    const done = event.url.searchParams.get('done');
    return renderList(m.v, m.team, done ? (DONE[done] ?? null) : null);
  });
  router.post(list, (event) =>
    site.act(
      event,
      (team) => `${CONSOLE_PATH}/${team.organizationId}/webhooks`,
      async ({ form, team, actor, v }) => {
        const created = await site.engine.workspace(team.organizationId).as(actor).webhooks.create(webhookBody(form));
        const frame = frameOf(v, team, 'Webhook added');
        const next = {
          href: `${CONSOLE_PATH}/${team.organizationId}/webhooks/${created.id}`,
          label: 'Go to the webhook',
        };
        return shownOnce(
          frame,
          created.secret,
          'Your receiver checks each request’s signature with it (the whole string is the HMAC key).',
          next,
          v.cookies,
        );
      },
      (m, err) => renderList(m.v, m.team, null, { message: err.message, drafts: m.form }, statusOf(err)),
    ),
  );
  router.get(`${list}/:webhook`, async (event) => {
    const m = await site.manager(event);
    if (m instanceof Response) return m;
    const done = event.url.searchParams.get('done');
    return renderHook(
      m.v,
      m.team,
      hookOf(event),
      event.url.searchParams.get('cursor') ?? undefined,
      done ? (DONE[done] ?? null) : null,
    );
  });
  const back = (event: H3Event) => (team: Team) => `${CONSOLE_PATH}/${team.organizationId}/webhooks/${hookOf(event)}`;
  const refusedHere = (event: H3Event) => (m: { v: ConsoleVisit; team: Team }, err: FeedbackError) =>
    err.code === 'ERR_NOT_FOUND'
      ? Promise.resolve(site.notFound(m.v, err.message))
      : renderHook(m.v, m.team, hookOf(event), undefined, null, err.message, statusOf(err));
  const forms: Record<string, (form: URLSearchParams) => UpdateWebhookBody> = {
    '': webhookBody,
    enable: () => ({ enabled: true }),
    disable: () => ({ enabled: false }),
  };
  for (const [name, bodyOf] of Object.entries(forms)) {
    router.post(`${list}/:webhook${name ? `/${name}` : ''}`, (event) =>
      site.act(
        event,
        back(event),
        async ({ form, team, actor }) => {
          await site.engine.workspace(team.organizationId).as(actor).webhooks.update(hookOf(event), bodyOf(form));
          return name ? `${name}d` : 'saved';
        },
        refusedHere(event),
      ),
    );
  }
  router.post(`${list}/:webhook/delete`, (event) =>
    site.act(
      event,
      (team) => `${CONSOLE_PATH}/${team.organizationId}/webhooks`,
      async ({ form, team, actor }) => {
        if (form.get('confirm') !== '1')
          throw new FeedbackError('ERR_VALIDATION', 'Tick the box to confirm the deletion: nothing was deleted.');
        await site.engine.workspace(team.organizationId).as(actor).webhooks.delete(hookOf(event));
        return 'deleted';
      },
      refusedHere(event),
    ),
  );
  router.post(`${list}/:webhook/deliveries/:delivery/replay`, (event) =>
    site.act(
      event,
      back(event),
      async ({ team, actor }) => {
        await site.engine
          .workspace(team.organizationId)
          .as(actor)
          .webhooks.replay(hookOf(event), getRouterParams(event).delivery ?? '');
        return 'replayed';
      },
      refusedHere(event),
    ),
  );
}
