import type { WebhookEvent } from '../../schemas/events.js';
import { events, type Sql } from '../store/index.js';

type StoredEvent = events.StoredEvent;

/** The ids an event can name a person by: their contacts, their votes, their comments. */
export interface EventSubject {
  contactIds: ReadonlySet<string>;
  voteIds: ReadonlySet<string>;
  commentIds: ReadonlySet<string>;
}

/**
 * The payload with the person taken out, or null when the event is not about them. A contact event keeps the contact's
 * id, provenance and times (no trait: no external id, name, plan, revenue or metadata; `changes` empty); a vote or a
 * comment keeps everything but the user id (a comment's text stays, as it stays on the post).
 */
export function redacted(event: WebhookEvent, subject: EventSubject): WebhookEvent | null {
  switch (event.event) {
    case 'contact.created':
    case 'contact.updated': {
      if (!subject.contactIds.has(event.contact.id)) return null;
      const contact = {
        ...event.contact,
        externalUserId: null,
        name: null,
        plan: null,
        mrrCents: null,
        currency: null,
        metadata: {},
      };
      return event.event === 'contact.updated' ? { ...event, contact, changes: {} } : { ...event, contact };
    }
    case 'contact.deleted':
      return subject.contactIds.has(event.contact.id)
        ? { ...event, contact: { id: event.contact.id, externalUserId: null } }
        : null;
    case 'vote.created':
      return subject.voteIds.has(event.vote.id) ? { ...event, vote: { ...event.vote, userId: null } } : null;
    case 'comment.created':
      return subject.commentIds.has(event.comment.id)
        ? { ...event, comment: { ...event.comment, authorUserId: null } }
        : null;
    default:
      return null;
  }
}

const PAGE = 1000;

/**
 * The workspace's events about the person that are not redacted yet, each with its redacted payload. One pass over the
 * workspace's contact, vote and comment events, a thousand at a time: an export or an erasure reads them all once.
 */
export async function eventsAbout(
  sql: Sql,
  organizationId: string,
  subject: EventSubject,
): Promise<Array<{ event: StoredEvent; redacted: WebhookEvent }>> {
  const found: Array<{ event: StoredEvent; redacted: WebhookEvent }> = [];
  for (let after = ''; ; ) {
    const page = await events.personalPage(sql, organizationId, after, PAGE);
    for (const event of page) {
      const r = redacted(event.payload, subject);
      if (r) found.push({ event, redacted: r });
    }
    if (page.length < PAGE) return found;
    after = page[page.length - 1]!.id;
  }
}
