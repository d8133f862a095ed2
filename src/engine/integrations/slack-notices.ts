// What a Slack notice says of an event: Block Kit with links to the console and the portal.
import type { WebhookEvent } from '../../schemas/events.js';
import type { Translator } from '../i18n/index.js';
import { boards, companies, contacts, type Database, posts, votes } from '../store/index.js';
import type { IntegrationsParts } from './context.js';
import { postAddresses, wholeMoney } from './links.js';
import type { SlackMessage, SlackSettings } from './slack.js';

/** Slack's mrkdwn with `&`, `<` and `>` escaped (its only special characters in text). */
const esc = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
const excerpt = (text: string, length = 280) => (text.length > length ? `${text.slice(0, length - 1)}…` : text);

/** The highest monthly revenue a voter brings in `currency` (their companies', else their own), in cents. */
async function voterRevenue(db: Database, organizationId: string, voteId: string, currency: string) {
  const contactId = await votes.voterOf(db, voteId);
  if (!contactId) return null;
  const [contact, theirs] = await Promise.all([
    contacts.find(db, organizationId, contactId),
    companies.ofContacts(db, [contactId]),
  ]);
  const payers = (theirs.get(contactId) ?? []).map((c) => ({
    name: c.name as string | null,
    mrrCents: c.mrrCents,
    currency: c.currency,
  }));
  const all = payers.length
    ? payers
    : contact
      ? [{ name: contact.name, mrrCents: contact.mrrCents, currency: contact.currency }]
      : [];
  const best = all
    .filter((p) => p.currency === currency && p.mrrCents !== null)
    .sort((a, b) => (b.mrrCents ?? 0) - (a.mrrCents ?? 0))[0];
  return best ? { name: best.name, mrrCents: best.mrrCents! } : null;
}

/**
 * The message for one event, or null when the event is not one the connection posts (its kind was unticked since, or
 * a vote below the revenue asked for).
 */
export async function noticeOf(
  db: Database,
  event: WebhookEvent,
  settings: SlackSettings,
  parts: IntegrationsParts,
  tr: Translator,
): Promise<SlackMessage | null> {
  if (!(settings.notices ?? []).includes(event.event as never)) return null;
  const postId =
    'post' in event
      ? event.post.id
      : 'comment' in event
        ? event.comment.postId
        : 'vote' in event
          ? event.vote.postId
          : null;
  const post = postId ? await posts.findLive(db, event.organizationId, postId) : undefined;
  if (!post) return null;
  const board = await boards.find(db, event.organizationId, post.boardId);
  const where = await postAddresses(db, event.organizationId, post, parts.publicUrl(), { board });
  const title = where.console ? `<${where.console}|${esc(post.title)}>` : `*${esc(post.title)}*`;
  let line: string;
  let quote: string | null = null;
  if (event.event === 'post.created') {
    line = `New post on ${esc(board?.name ?? 'a board')}: ${title}`;
    quote = post.bodyText ? excerpt(post.bodyText) : null;
  } else if (event.event === 'comment.created') {
    line = `New comment on ${title}`;
    quote = excerpt(event.comment.bodyText);
  } else if (event.event === 'post.status_changed') {
    line = `${title} moved from ${tr.t(`status.${event.previousStatus}` as never)} to ${tr.t(`status.${post.status}` as never)}`;
  } else if (event.event === 'vote.created') {
    const currency = settings.currency ?? 'USD';
    if (settings.minimumMrr === undefined || settings.minimumMrr === null) return null;
    const payer = await voterRevenue(db, event.organizationId, event.vote.id, currency);
    if (!payer || payer.mrrCents < settings.minimumMrr * 100) return null;
    line = `${esc(payer.name ?? 'A customer')} (${wholeMoney(payer.mrrCents, currency)} a month) voted for ${title}`;
  } else return null;
  const links = [
    where.console
      ? { type: 'button', text: { type: 'plain_text', text: 'Open in the console' }, url: where.console }
      : null,
    where.portal
      ? { type: 'button', text: { type: 'plain_text', text: 'View on the portal' }, url: where.portal }
      : null,
  ].filter(Boolean);
  const blocks: unknown[] = [{ type: 'section', text: { type: 'mrkdwn', text: line } }];
  if (quote) blocks.push({ type: 'section', text: { type: 'mrkdwn', text: `>${esc(quote).replaceAll('\n', '\n>')}` } });
  if (links.length) blocks.push({ type: 'actions', elements: links });
  return { text: line.replace(/<([^|>]+)\|([^>]+)>/g, '$2'), blocks };
}
