import type { ErasureReport } from '../../schemas/privacy.js';
import type { ContactRecord } from '../contacts/index.js';
import { changeTime, FeedbackError, suppressionDigest } from '../shared/index.js';
import {
  comments,
  contacts,
  type Database,
  emit,
  events,
  idempotencyKeys,
  mail,
  mailPreferences,
  mailUnsubscribes,
  portalCodes,
  portalSessions,
  posts,
  type Sql,
  type Subject,
  suppressions,
  votes,
} from '../store/index.js';
import { eventsAbout } from './events.js';
import { keptAnswersAbout, type PrivacyContext, personOf, portalAccessOf } from './person.js';

/** Take the person out of what refers to them: events (redacted), votes, comments, posts, mail, settings and portal access. */
async function forget(tx: Sql, ctx: PrivacyContext, who: Subject, now: Date): Promise<ErasureReport> {
  const org = ctx.organizationId;
  const voteIds = (await votes.listFor(tx, org, who)).map((v) => v.id);
  const commentIds = (await comments.listFor(tx, org, who)).map((c) => c.id);
  // Events first: they are found by the vote and comment ids, before those rows forget whose they were.
  const found = await eventsAbout(tx, org, {
    contactIds: new Set(who.contactIds),
    voteIds: new Set(voteIds),
    commentIds: new Set(commentIds),
  });
  for (const { event, redacted } of found) await events.redact(tx, event.id, redacted, now);
  const report: ErasureReport = {
    contactIds: [...who.contactIds],
    erasedAt: now.toISOString(),
    votes: await votes.anonymize(tx, voteIds),
    comments: await comments.anonymize(tx, commentIds),
    posts: await posts.anonymizeAuthor(tx, org, who),
    mail: await mail.removeFor(tx, org, who),
    events: found.length,
    sessions: 0,
    idempotentAnswers: 0,
    suppressed: false,
  };
  if (who.emailHash) {
    await mailUnsubscribes.removeFor(tx, org, who.emailHash);
    await mailPreferences.removeFor(tx, org, who.emailHash);
    const portal = await portalAccessOf(tx, org, who.emailHash);
    await portalSessions.removeMany(
      tx,
      portal.sessions.map((s) => s.id),
    );
    await portalCodes.removeMany(
      tx,
      portal.codes.map((c) => c.id),
    );
    report.sessions = portal.sessions.length + portal.codes.length;
  }
  const answers = await keptAnswersAbout(tx, ctx, who.contactIds);
  for (const key of answers) await idempotencyKeys.remove(tx, org, key);
  report.idempotentAnswers = answers.length;
  return report;
}

/**
 * Delete each of the person's contacts as DELETE does (`contact.deleted`), and put a salted hash of the address on the
 * suppression list. Receivers get the externalUserId to erase their copy; once no delivery waits for it, it goes too.
 */
async function deleteContacts(tx: Sql, organizationId: string, all: ContactRecord[], now: Date): Promise<boolean> {
  const email = all.find((c) => c.email)?.email ?? null;
  const digest = email && suppressionDigest((await suppressions.saltOf(tx, organizationId, true))!, email);
  for (const c of all) {
    await contacts.remove(tx, c.id);
    const eventId = await emit(
      tx,
      { event: 'contact.deleted', organizationId, contact: { id: c.id, externalUserId: c.externalUserId } },
      now,
    );
    const delivering = (await events.deliveryCount(tx, eventId)) > 0;
    if (!delivering)
      await events.redact(
        tx,
        eventId,
        { event: 'contact.deleted', organizationId, contact: { id: c.id, externalUserId: null } },
        now,
      );
    if (digest)
      await suppressions.add(tx, {
        organizationId,
        digest,
        contactId: c.id,
        pendingEventId: delivering ? eventId : null,
        at: now,
      });
  }
  return digest !== null;
}

/**
 * Erase the person: each of their contacts deleted as `DELETE /v1/contacts/{id}` does (posts stay, without it;
 * `contact.deleted`), and besides: their address hash, name and user id taken off their votes, comments and posts,
 * their mail (queued or sent), subscriptions, unsubscribes, preferences, portal sessions and codes deleted, their
 * data taken out of stored event payloads and kept idempotent answers, and a salted hash of the address put on
 * the suppression list. One transaction.
 */
export async function erase(ctx: PrivacyContext, contactId: string): Promise<ErasureReport> {
  return ctx.db.transaction(async (tx) => {
    const person = await personOf(tx, ctx.organizationId, contactId, true);
    if (!person) {
      const erased = await suppressions.findByContact(tx, ctx.organizationId, contactId);
      throw new FeedbackError(
        'ERR_NOT_FOUND',
        erased ? `Contact ${contactId} was erased at ${erased.createdAt}.` : `No contact with id ${contactId}.`,
      );
    }
    // After the last change of any of the person's contacts: their contact.deleted follows their contact.updated.
    const now = changeTime(ctx.clock, new Date(Math.max(...person.all.map((c) => c.updatedAt.getTime()))));
    const report = await forget(tx, ctx, person.subject, now);
    report.suppressed = await deleteContacts(tx, ctx.organizationId, person.all, now);
    return report;
  });
}

/**
 * The chore that finishes erasures: a `contact.deleted` kept its externalUserId for the webhooks that had to hear of it;
 * once none of its deliveries is pending, the id goes too. A hundred erasures at a time.
 */
export async function redactDeliveredErasures(db: Database, clock: () => Date): Promise<number> {
  const done = await suppressions.deliveredErasures(db, 100);
  for (const e of done) {
    await db.transaction(async (tx) => {
      await events.redact(
        tx,
        e.eventId,
        {
          event: 'contact.deleted',
          organizationId: e.organizationId,
          contact: { id: e.contactId, externalUserId: null },
        },
        clock(),
      );
      await suppressions.clearPendingEvent(tx, e.organizationId, e.contactId);
    });
  }
  return done.length;
}
