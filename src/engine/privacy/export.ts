import { CONTACT_EXPORT_FORMAT, type ContactExport, contactExportSchema } from '../../schemas/privacy.js';
import { toCompanyRef } from '../companies/index.js';
import { toContact } from '../contacts/index.js';
import { FeedbackError } from '../shared/index.js';
import {
  comments,
  companies,
  mail,
  mailPreferences,
  mailSubscriptions,
  mailUnsubscribes,
  posts,
  type Subject,
  suppressions,
  votes,
} from '../store/index.js';
import { eventsAbout } from './events.js';
import { MEANINGS, type PrivacyContext, personOf, portalAccessOf } from './person.js';

/** What the export says of the person's notification settings and mail. */
async function notificationsOf(ctx: PrivacyContext, who: Subject) {
  const { db, organizationId: org } = ctx;
  const subs = [];
  for (const id of who.contactIds) subs.push(...(await mailSubscriptions.listFor(db, id)));
  return {
    digest: who.emailHash ? await mailPreferences.digestOf(db, org, who.emailHash) : 'instant',
    subscriptions: subs.map(({ topic, via, createdAt }) => ({ topic, via, createdAt })),
    unsubscribes: who.emailHash
      ? (await mailUnsubscribes.listFor(db, org, who.emailHash)).map(({ topic, via, createdAt, undoneAt }) => ({
          topic,
          via,
          createdAt,
          undoneAt,
        }))
      : [],
    mail: await mail.listFor(db, org, who),
  };
}

/** Everything held about the person this contact is (or was: after an erasure, what it left). */
export async function exportPerson(ctx: PrivacyContext, contactId: string): Promise<ContactExport> {
  const { db, organizationId: org } = ctx;
  const now = ctx.clock();
  const person = await personOf(db, org, contactId, false);
  const erasure = await suppressions.findByContact(db, org, contactId);
  if (!person && !erasure)
    throw new FeedbackError('ERR_NOT_FOUND', `No contact with id ${contactId}, and no erasure of it.`);
  const who: Subject = person?.subject ?? { contactIds: [contactId], emailHash: null, userIds: [] };
  const personVotes = await votes.listFor(db, org, who);
  const personComments = await comments.listFor(db, org, who);
  const portal = await portalAccessOf(db, org, who.emailHash);
  const found = await eventsAbout(db, org, {
    contactIds: new Set(who.contactIds),
    voteIds: new Set(personVotes.map((v) => v.id)),
    commentIds: new Set(personComments.map((c) => c.id)),
  });
  const contact = person?.contact;
  const times = (r: { createdAt: Date; expiresAt: Date }) => ({
    createdAt: r.createdAt.toISOString(),
    expiresAt: r.expiresAt.toISOString(),
  });
  return contactExportSchema.parse({
    format: CONTACT_EXPORT_FORMAT,
    exportedAt: now.toISOString(),
    organizationId: org,
    contactId,
    contact: contact ? toContact(contact) : null,
    sameAddress: (person?.all ?? []).filter((c) => c.id !== contactId).map(toContact),
    companies: [...(await companies.ofContacts(db, who.contactIds))].flatMap(([id, list]) =>
      list.map((c) => ({ contactId: id, ...toCompanyRef(c) })),
    ),
    consent: contact
      ? {
          source: contact.source,
          consentBasis: contact.consentBasis,
          meaning: MEANINGS[contact.consentBasis] ?? 'A basis this version does not know.',
        }
      : null,
    posts: await posts.listAllFor(db, org, who),
    votes: personVotes,
    comments: personComments,
    notifications: await notificationsOf(ctx, who),
    portal: {
      sessions: portal.sessions.map((s) => ({ email: s.email, name: s.name, verified: s.verified, ...times(s) })),
      pendingCodes: portal.codes.map((c) => ({ email: c.email, name: c.name, ...times(c) })),
    },
    events: found.map(({ event }) => ({
      id: event.id,
      type: event.type,
      createdAt: event.createdAt,
      payload: event.payload as unknown as Record<string, unknown>,
    })),
    erasure: erasure
      ? {
          erasedAt: erasure.createdAt,
          suppressionDigest: erasure.digest,
          deletionEventPending: erasure.pendingEventId !== null,
        }
      : null,
  });
}
