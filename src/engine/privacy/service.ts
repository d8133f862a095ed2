import { CONTACT_EXPORT_FORMAT, contactExportSchema, type ContactExport, type ErasureReport } from '../../schemas/privacy.js';
import { FeedbackError } from '../errors.js';
import { sealedAt } from '../sealing.js';
import type { SecretBox } from '../secrets.js';
import { toContact, type ContactRecord } from '../shared/contacts.js';
import { hashEmail, suppressionDigest } from '../shared/email.js';
import { changeTime } from '../shared/time.js';
import * as comments from '../store/comments.js';
import * as contacts from '../store/contacts.js';
import { emit, redact, deliveryCount } from '../store/events.js';
import * as idempotencyKeys from '../store/idempotency-keys.js';
import * as mail from '../store/mail.js';
import * as preferences from '../store/mail-preferences.js';
import * as subscriptions from '../store/mail-subscriptions.js';
import * as unsubscribes from '../store/mail-unsubscribes.js';
import * as access from '../store/portal-access.js';
import * as posts from '../store/posts.js';
import type { Database, Sql } from '../store/sql.js';
import type { Subject } from '../store/subjects.js';
import * as suppressions from '../store/suppressions.js';
import * as votes from '../store/votes.js';
import { eventsAbout } from './events.js';

/** The spec's words for each consent basis, as an export explains it. */
const MEANINGS: Record<string, string> = {
  sdk_identify: "The workspace's app identified this person; it established consent before calling. Email is permitted.",
  public_interaction_opt_in: 'The person ticked the notify-me opt-in on a public board. Email is permitted about what they opted in on and what they subscribe to.',
  admin_created: 'A workspace admin created this contact and attests its lawful basis. Email only where the workspace turned it on.',
  legacy_inferred: 'Backfilled from activity before the opt-in existed. Suppressed for marketing; emailed only a reply to their own request.',
};

export interface PrivacyDeps {
  db: Database;
  organizationId: string;
  clock: () => Date;
  /** Opens kept Idempotency-Key answers, which may hold the contact as it was answered. */
  secrets: SecretBox;
}

/** The contact asked about and every other contact of the workspace with its address: one person. */
async function personOf(sql: Sql, organizationId: string, contactId: string, lock: boolean): Promise<{ contact: ContactRecord; all: ContactRecord[]; subject: Subject } | null> {
  const contact = await contacts.find(sql, organizationId, contactId, lock);
  if (!contact) return null;
  const emailHash = hashEmail(contact.email);
  const all = emailHash ? await contacts.findByEmailHash(sql, organizationId, emailHash) : [contact];
  const userIds = all.map((c) => c.externalUserId).filter((id): id is string => id !== null);
  return { contact, all, subject: { contactIds: all.map((c) => c.id), emailHash, userIds } };
}

/**
 * Data-subject requests: everything held about a person in one JSON document (`export`), and their erasure (`erase`).
 * A person is a contact and every other contact of the workspace with the same address. docs/privacy.md says what is
 * found, what an erasure removes and what it keeps.
 */
export function createPrivacyService({ db, organizationId, clock, secrets }: PrivacyDeps) {
  const org = organizationId;

  /** The kept answers of idempotent requests (24 hours) that hold one of the person's contacts. */
  async function keptAnswersAbout(sql: Sql, contactIds: readonly string[]): Promise<string[]> {
    const keys: string[] = [];
    for (let after = ''; ; ) {
      const page = await idempotencyKeys.answersOf(sql, org, after, 500);
      for (const row of page) {
        let body: string;
        try {
          body = secrets.open(row.body, sealedAt.idempotentAnswer(org, row.key));
        } catch {
          continue; // sealed under a key this server no longer has: it cannot be read, by us or anyone with the database
        }
        if (contactIds.some((id) => body.includes(`"${id}"`))) keys.push(row.key);
      }
      if (page.length < 500) return keys;
      after = page[page.length - 1]!.key;
    }
  }

  return {
    /** Everything held about the person this contact is (or was: after an erasure, what it left). */
    async export(contactId: string): Promise<ContactExport> {
      const now = clock();
      const person = await personOf(db, org, contactId, false);
      const erasure = await suppressions.findByContact(db, org, contactId);
      if (!person && !erasure) throw new FeedbackError('ERR_NOT_FOUND', `No contact with id ${contactId}, and no erasure of it.`);
      const who: Subject = person?.subject ?? { contactIds: [contactId], emailHash: null, userIds: [] };
      const personVotes = await votes.listFor(db, org, who);
      const personComments = await comments.listFor(db, org, who);
      const portal = await access.listForWorkspace(db, org);
      const theirs = <T extends { email: string }>(rows: T[]) => rows.filter((r) => who.emailHash !== null && hashEmail(r.email) === who.emailHash);
      const found = await eventsAbout(db, org, {
        contactIds: new Set(who.contactIds),
        voteIds: new Set(personVotes.map((v) => v.id)),
        commentIds: new Set(personComments.map((c) => c.id)),
      });
      const contact = person?.contact;
      const subs = [];
      for (const id of who.contactIds) subs.push(...(await subscriptions.listFor(db, id)));
      return contactExportSchema.parse({
        format: CONTACT_EXPORT_FORMAT,
        exportedAt: now.toISOString(),
        organizationId: org,
        contactId,
        contact: contact ? toContact(contact) : null,
        sameAddress: (person?.all ?? []).filter((c) => c.id !== contactId).map(toContact),
        consent: contact ? { source: contact.source, consentBasis: contact.consentBasis, meaning: MEANINGS[contact.consentBasis] ?? 'A basis this version does not know.' } : null,
        posts: await posts.listAllFor(db, org, who),
        votes: personVotes,
        comments: personComments,
        notifications: {
          digest: who.emailHash ? await preferences.digestOf(db, org, who.emailHash) : 'instant',
          subscriptions: subs.map(({ topic, via, createdAt }) => ({ topic, via, createdAt })),
          unsubscribes: who.emailHash ? (await unsubscribes.listFor(db, org, who.emailHash)).map(({ topic, via, createdAt, undoneAt }) => ({ topic, via, createdAt, undoneAt })) : [],
          mail: await mail.listFor(db, org, who),
        },
        portal: {
          sessions: theirs(portal.sessions).map(({ email, name, verified, createdAt, expiresAt }) => ({ email, name, verified, createdAt: createdAt.toISOString(), expiresAt: expiresAt.toISOString() })),
          pendingCodes: theirs(portal.codes).map(({ email, name, createdAt, expiresAt }) => ({ email, name, createdAt: createdAt.toISOString(), expiresAt: expiresAt.toISOString() })),
        },
        events: found.map(({ event }) => ({ id: event.id, type: event.type, createdAt: event.createdAt, payload: event.payload as unknown as Record<string, unknown> })),
        erasure: erasure ? { erasedAt: erasure.createdAt, suppressionDigest: erasure.digest, deletionEventPending: erasure.pendingEventId !== null } : null,
      });
    },

    /**
     * Erase the person: each of their contacts deleted as `DELETE /v1/contacts/{id}` does (posts stay, without it;
     * `contact.deleted`), and besides: their address hash, name and user id taken off their votes, comments and posts,
     * their mail (queued or sent), subscriptions, unsubscribes, preferences, portal sessions and codes deleted, their
     * data taken out of stored event payloads and kept idempotent answers, and a salted hash of the address put on
     * the suppression list. One transaction.
     */
    async erase(contactId: string): Promise<ErasureReport> {
      return db.transaction(async (tx) => {
        const person = await personOf(tx, org, contactId, true);
        if (!person) {
          const erased = await suppressions.findByContact(tx, org, contactId);
          throw new FeedbackError('ERR_NOT_FOUND', erased ? `Contact ${contactId} was erased at ${erased.createdAt}.` : `No contact with id ${contactId}.`);
        }
        // After the last change of any of the person's contacts: their contact.deleted follows their contact.updated.
        const now = changeTime(clock, new Date(Math.max(...person.all.map((c) => c.updatedAt.getTime()))));
        const who = person.subject;
        const voteIds = (await votes.listFor(tx, org, who)).map((v) => v.id);
        const commentIds = (await comments.listFor(tx, org, who)).map((c) => c.id);
        // Events first: they are found by the vote and comment ids, before those rows forget whose they were.
        const found = await eventsAbout(tx, org, { contactIds: new Set(who.contactIds), voteIds: new Set(voteIds), commentIds: new Set(commentIds) });
        for (const { event, redacted } of found) await redact(tx, event.id, redacted, now);
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
          await unsubscribes.removeFor(tx, org, who.emailHash);
          await preferences.removeFor(tx, org, who.emailHash);
          const portal = await access.listForWorkspace(tx, org);
          const theirs = (rows: Array<{ id: string; email: string }>) => rows.filter((r) => hashEmail(r.email) === who.emailHash).map((r) => r.id);
          const ids = { sessions: theirs(portal.sessions), codes: theirs(portal.codes) };
          await access.removeAccess(tx, ids);
          report.sessions = ids.sessions.length + ids.codes.length;
        }
        const answers = await keptAnswersAbout(tx, who.contactIds);
        for (const key of answers) await idempotencyKeys.remove(tx, org, key);
        report.idempotentAnswers = answers.length;
        const email = person.all.find((c) => c.email)?.email ?? null;
        const digest = email && suppressionDigest((await suppressions.saltOf(tx, org, true))!, email);
        for (const c of person.all) {
          await contacts.remove(tx, c.id);
          const eventId = await emit(tx, { event: 'contact.deleted', organizationId: org, contact: { id: c.id, externalUserId: c.externalUserId } }, now);
          // Receivers get the externalUserId to erase their copy; once no delivery waits for it, it goes too.
          const delivering = (await deliveryCount(tx, eventId)) > 0;
          if (!delivering) await redact(tx, eventId, { event: 'contact.deleted', organizationId: org, contact: { id: c.id, externalUserId: null } }, now);
          if (digest) await suppressions.add(tx, { organizationId: org, digest, contactId: c.id, pendingEventId: delivering ? eventId : null, at: now });
        }
        report.suppressed = digest !== null;
        return report;
      });
    },
  };
}
export type PrivacyService = ReturnType<typeof createPrivacyService>;

/**
 * The chore that finishes erasures: a `contact.deleted` kept its externalUserId for the webhooks that had to hear of it;
 * once none of its deliveries is pending, the id goes too. A hundred erasures at a time.
 */
export async function redactDeliveredErasures(db: Database, clock: () => Date): Promise<number> {
  const done = await suppressions.deliveredErasures(db, 100);
  for (const e of done) {
    await db.transaction(async (tx) => {
      await redact(tx, e.eventId, { event: 'contact.deleted', organizationId: e.organizationId, contact: { id: e.contactId, externalUserId: null } }, clock());
      await suppressions.clearPendingEvent(tx, e.organizationId, e.contactId);
    });
  }
  return done.length;
}
