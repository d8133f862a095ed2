// The jobs of a Slack connection: check it, post a notice to the channel, and the message shortcut "Send to
// feedback" (a modal, then a post made from the message).
import { createContactsService } from '../contacts/index.js';
import { translator } from '../i18n/index.js';
import { actAs } from '../members/index.js';
import { createPostsService } from '../posts/index.js';
import { FeedbackError, hashEmail, plainBody } from '../shared/index.js';
import { boards, contacts, integrations, type WorkspaceContext } from '../store/index.js';
import { integrationActor } from './context.js';
import { CallFailure } from './http.js';
import { type JobContext, type JobHandler, triedBefore, writtenSince } from './runner.js';
import { postToIncomingWebhook, type SlackMessage, type SlackSettings, slackApi } from './slack.js';
import { noticeOf } from './slack-notices.js';

/** The shortcut's and the modal's callback id (the Slack app's message shortcut is made with it). */
export const SLACK_SHORTCUT = 'send_to_feedback';

/** Send a message once: a bot's carries the job in its metadata and is looked for before a repeated attempt. */
async function send(c: JobContext, message: SlackMessage): Promise<void> {
  const { credentials, job } = c;
  if (credentials.webhookUrl) {
    // An incoming webhook has no way to ask what it received: after an attempt that recorded nothing (its process
    // died mid-call) the message is not posted again, so it is posted at most once.
    if (triedBefore(job) && job.lastError === null) return;
    return postToIncomingWebhook(c.parts, credentials.webhookUrl, message);
  }
  const channel = (c.integration.settings as SlackSettings).channel;
  if (!channel) throw new CallFailure('Slack: no channel is chosen for notices.', false);
  const slack = slackApi(c.parts, credentials);
  if (triedBefore(job) && (await slack.posted(channel, job.id, writtenSince(job)))) return;
  await slack.post(channel, message, job.id);
}

/** The modal that asks for a board and a title, carrying the message it was opened on. */
function modal(boardList: Array<{ id: string; name: string }>, message: Record<string, unknown>, channel: string) {
  const text = String(message.text ?? '');
  const firstLine = text.split('\n')[0]!.trim().slice(0, 150);
  const option = (b: { id: string; name: string }) => ({
    text: { type: 'plain_text', text: b.name.slice(0, 75) },
    value: b.id,
  });
  return {
    type: 'modal',
    callback_id: SLACK_SHORTCUT,
    private_metadata: JSON.stringify({ channel, ts: message.ts, user: message.user, text: text.slice(0, 2500) }),
    title: { type: 'plain_text', text: 'Send to feedback' },
    submit: { type: 'plain_text', text: 'Create post' },
    close: { type: 'plain_text', text: 'Cancel' },
    blocks: [
      {
        type: 'input',
        block_id: 'board',
        label: { type: 'plain_text', text: 'Board' },
        element: {
          type: 'static_select',
          action_id: 'board',
          options: boardList.slice(0, 100).map(option),
          ...(boardList[0] ? { initial_option: option(boardList[0]) } : {}),
        },
      },
      {
        type: 'input',
        block_id: 'title',
        label: { type: 'plain_text', text: 'Title' },
        element: {
          type: 'plain_text_input',
          action_id: 'title',
          max_length: 200,
          initial_value: firstLine || 'From Slack',
        },
      },
    ],
  };
}

/** The contact a Slack author is: the workspace's with their address, else a new one made by the team. */
async function authorContact(ctx: WorkspaceContext, email: string | null, name: string | null) {
  const hash = hashEmail(email);
  if (!email || !hash) return null;
  const had = await contacts.findIdByEmailHash(ctx.db, ctx.organizationId, hash);
  if (had) return had;
  return (await createContactsService(ctx).create({ email, ...(name ? { name } : {}) })).id;
}

type Interaction = {
  type: string;
  callback_id?: string;
  trigger_id?: string;
  channel?: { id?: string };
  message?: Record<string, unknown>;
  view?: {
    callback_id?: string;
    private_metadata?: string;
    state?: { values?: Record<string, Record<string, { selected_option?: { value?: string }; value?: string }>> };
  };
};

async function shortcut(c: JobContext, i: Interaction): Promise<void> {
  const list = await boards.list(c.db, c.job.organizationId, 100);
  try {
    await slackApi(c.parts, c.credentials).openView(
      String(i.trigger_id),
      modal(list, i.message ?? {}, String(i.channel?.id ?? '')),
    );
  } catch (err) {
    // A trigger is good for 3 s: a modal that could not open then never will.
    throw new CallFailure((err as Error).message, false);
  }
  await c.complete();
}

async function submission(c: JobContext, i: Interaction): Promise<void> {
  const meta = JSON.parse(i.view?.private_metadata ?? '{}') as {
    channel?: string;
    ts?: string;
    user?: string;
    text?: string;
  };
  const values = i.view?.state?.values ?? {};
  const boardId = values.board?.board?.selected_option?.value ?? '';
  const title = (values.title?.title?.value ?? '').trim();
  const slack = slackApi(c.parts, c.credentials);
  const author = meta.user ? await slack.userEmail(meta.user) : undefined;
  const link = meta.channel && meta.ts ? await slack.permalink(meta.channel, meta.ts) : null;
  const text = [meta.text ?? '', link ? `From Slack: ${link}` : ''].filter(Boolean).join('\n\n');
  await c.complete(async (ctx) => {
    await actAs(ctx, integrationActor('slack'), 'triage', async (inner) => {
      const contactId = await authorContact(inner, author?.profile?.email ?? null, author?.profile?.real_name ?? null);
      const post = await createPostsService(inner).create(boardId, {
        title: title || 'From Slack',
        body: plainBody(text || title),
        ...(contactId ? { contactId } : {}),
      });
      return {
        result: post,
        audit: { action: 'post.created', resourceType: 'post', resourceId: post.id, detail: { from: link } },
      };
    });
  });
}

export const SLACK_JOBS: Record<string, JobHandler> = {
  async 'slack.verify'(c) {
    if (c.credentials.webhookUrl) return void (await c.complete());
    const who = await slackApi(c.parts, c.credentials).authTest();
    await c.complete((_ctx, tx) => integrations.noteAccount(tx, c.integration.id, who.team ?? null, {}));
  },
  async 'slack.notice'(c) {
    const message = await noticeOf(
      c.db,
      c.job.payload as never,
      c.integration.settings as SlackSettings,
      c.parts,
      translator(),
    );
    if (message) await send(c, message);
    await c.complete();
  },
  async 'slack.interaction'(c) {
    const i = c.job.payload as Interaction;
    if (i.type === 'message_action' && i.callback_id === SLACK_SHORTCUT) return shortcut(c, i);
    if (i.type === 'view_submission' && i.view?.callback_id === SLACK_SHORTCUT) {
      try {
        return await submission(c, i);
      } catch (err) {
        if (err instanceof FeedbackError) throw new CallFailure(`The post could not be made: ${err.message}`, false);
        throw err;
      }
    }
    await c.complete();
  },
};
