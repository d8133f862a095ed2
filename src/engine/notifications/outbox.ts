import type { ChangelogEntry } from '../../schemas/interactions.js';
import type { Post } from '../../schemas/posts.js';
import { hashEmail, newId, suppressionDigest } from '../shared/index.js';
import { mail, mailRecipients, type Sql, suppressions } from '../store/index.js';
import { type MailPurpose, mayEmail } from './consent.js';
import type { MailPayload } from './messages.js';
import { CHANGELOG_TOPIC, postIdOf, postTopic } from './topics.js';

type Candidate = mailRecipients.Candidate;
type Concerned = mailRecipients.Concerned;

/** An instant recipient who had this many messages written in the last hour gets the rest of the hour as one digest. */
export const DIGEST_AFTER = 3;
const HOUR_MS = 60 * 60 * 1000;

/** The change that causes mail: its workspace, its event (the change's id) and its time. */
export interface Change {
  organizationId: string;
  /** The id of the event the change emitted. */
  changeId: string;
  now: Date;
}

/** When a recipient's message is due: now, or at the top of the next hour for a digest (chosen, or because they are getting many). */
function dueAt(c: Candidate, now: Date): Date {
  if (c.digest === 'hourly' || c.recent >= DIGEST_AFTER)
    return new Date((Math.floor(now.getTime() / HOUR_MS) + 1) * HOUR_MS);
  return now;
}

/**
 * Write one change's mail, in the change's transaction: every candidate the consent rule lets through, once per
 * address (contacts sharing an address get one message). `addressed` marks the candidates a reply answers (their own
 * post or comment) and says what each one's message carries.
 */
async function write(
  tx: Sql,
  change: Change,
  purpose: MailPurpose,
  concerned: Concerned,
  payloadFor: (c: Candidate) => MailPayload,
  options: { ownRequest?: (c: Candidate) => boolean; excludeEmailHash?: string | null; seen?: Set<string> } = {},
): Promise<number> {
  const org = change.organizationId;
  const topic = 'subscribersOf' in concerned ? concerned.subscribersOf : concerned.topic;
  const optOutTopics = [
    'all',
    purpose === 'changelog' ? CHANGELOG_TOPIC : 'posts',
    ...(postIdOf(topic) ? [topic] : []),
  ];
  const ws = await mailRecipients.workspaceFacts(tx, org);
  const found = await mailRecipients.candidates(
    tx,
    org,
    concerned,
    optOutTopics,
    new Date(change.now.getTime() - HOUR_MS),
  );
  if (found.length === 0) return 0;
  const digests = ws.salt ? found.map((c) => suppressionDigest(ws.salt!, c.email)) : [];
  const onList = ws.salt ? await suppressions.suppressed(tx, org, digests) : new Set<string>();
  // One message per address and change, across the calls of one change that share `seen`.
  const seen = options.seen ?? new Set<string>();
  const rows: mail.NewMail[] = [];
  found.forEach((c, i) => {
    if (seen.has(c.emailHash) || c.emailHash === options.excludeEmailHash) return;
    // An unsubscribe covers the topic unless the person asked for the topic themselves after it.
    const subscribed = c.subscribedAt === null ? null : c.subscribedVia === 'workspace' ? 'workspace' : 'own';
    const optedOut = c.optedOutAt !== null && !(subscribed === 'own' && c.subscribedAt! > c.optedOutAt);
    const allowed = mayEmail(c, {
      purpose,
      participant: c.participant,
      subscribed,
      ownRequest: options.ownRequest?.(c) ?? false,
      adminCreatedMail: ws.adminCreatedMail,
      optedOut,
      suppressed: ws.salt !== null && onList.has(digests[i]!),
    });
    if (!allowed) return;
    seen.add(c.emailHash);
    rows.push({
      id: newId('mail', change.now.getTime()),
      organizationId: org,
      changeId: change.changeId,
      kind: purpose,
      contactId: c.contactId,
      email: c.email,
      emailHash: c.emailHash,
      payload: JSON.stringify(payloadFor(c)),
      dueAt: dueAt(c, change.now),
      createdAt: change.now,
    });
  });
  return mail.insertMany(tx, rows);
}

const postRef = (p: Post) => ({ id: p.id, title: p.title, slug: p.slug, boardId: p.boardId });

/**
 * A post's status changed (PATCH, a merge, the console with an optional public note): its participants (author,
 * voters, commenters) and its subscribers who may be emailed get one message each.
 */
export function notifyPostStatus(
  tx: Sql,
  change: Change,
  post: Post,
  previousStatus: string,
  mergedInto: Post | null = null,
  note: string | null = null,
): Promise<number> {
  const payload: MailPayload = {
    kind: 'post_status',
    post: postRef(post),
    from: previousStatus,
    to: post.status,
    mergedInto: mergedInto && postRef(mergedInto),
    ...(note ? { note } : {}),
  };
  return write(tx, change, 'post_status', { participantsOf: post.id, topic: postTopic(post.id) }, () => payload);
}

/**
 * A comment was posted: the author of the post, and for a reply the author of the comment it answers, hear of it (a
 * reply to their own request); the commenter never hears of their own comment.
 */
export function notifyReply(
  tx: Sql,
  change: Change,
  post: Post,
  comment: { id: string; bodyText: string; authorName: string | null; email: string | null },
  parent: { contactId: string | null } | null,
): Promise<number> {
  const addressed = [post.contactId, parent?.contactId].filter((id): id is string => typeof id === 'string');
  if (addressed.length === 0) return Promise.resolve(0);
  const excerpt = comment.bodyText.length > 500 ? `${comment.bodyText.slice(0, 499)}…` : comment.bodyText;
  return write(
    tx,
    change,
    'reply',
    { contacts: addressed, topic: postTopic(post.id) },
    (c) => ({
      kind: 'reply',
      post: postRef(post),
      comment: { id: comment.id, authorName: comment.authorName, excerpt },
      replyTo: c.contactId === parent?.contactId ? 'comment' : 'post',
    }),
    { ownRequest: (c) => addressed.includes(c.contactId), excludeEmailHash: hashEmail(comment.email) },
  );
}

/**
 * A webhook was disabled after its 50th consecutive failure: each of the workspace's admin addresses gets one notice,
 * written in the disable's transaction, so that the disable and its notice commit together (a process that dies right
 * after sends it on restart, through the outbox, never twice). Admins are the workspace's own people, not contacts:
 * the consent table does not apply, and the notice has no unsubscribe link.
 */
export async function notifyWebhookDisabled(
  tx: Sql,
  change: Change,
  webhook: { id: string; url: string; adminEmails: readonly string[] },
  failures: number,
): Promise<number> {
  const payload = JSON.stringify({
    kind: 'webhook_disabled',
    webhook: { id: webhook.id, url: webhook.url },
    failures,
  } satisfies MailPayload);
  const byHash = new Map<string, string>();
  for (const email of webhook.adminEmails) byHash.set(hashEmail(email)!, email);
  const rows: mail.NewMail[] = [...byHash].map(([emailHash, email]) => ({
    id: newId('mail', change.now.getTime()),
    organizationId: change.organizationId,
    changeId: change.changeId,
    kind: 'webhook_disabled',
    contactId: null,
    email,
    emailHash,
    payload,
    dueAt: change.now,
    createdAt: change.now,
  }));
  return mail.insertMany(tx, rows);
}

/**
 * A changelog entry was published: the workspace's contacts subscribed to the changelog, and the people of the posts
 * it ships (their authors, voters, commenters and followers, as a status change of the post would reach them), each
 * who may be emailed, one message per address.
 */
export async function notifyChangelog(
  tx: Sql,
  change: Change,
  entry: ChangelogEntry,
  ships: readonly Post[] = [],
): Promise<number> {
  const excerpt = entry.body.length > 500 ? `${entry.body.slice(0, 499)}…` : entry.body;
  const about = { id: entry.id, title: entry.title, slug: entry.slug, boardId: entry.boardId, excerpt };
  const shipped = ships.map(postRef);
  const seen = new Set<string>();
  let written = await write(
    tx,
    change,
    'changelog',
    { subscribersOf: CHANGELOG_TOPIC },
    () => ({ kind: 'changelog', entry: about, ships: shipped }),
    { seen },
  );
  for (const post of ships)
    written += await write(
      tx,
      change,
      'post_status',
      { participantsOf: post.id, topic: postTopic(post.id) },
      () => ({ kind: 'changelog', entry: about, ships: shipped, forPost: postRef(post) }),
      {
        seen,
      },
    );
  return written;
}
