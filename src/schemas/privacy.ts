import { z } from 'zod';
import { timestampSchema } from './common.js';
import { companyRefSchema } from './companies.js';
import { contactSchema } from './contacts.js';
import { postSchema } from './posts.js';

/** The version of the data-subject export's format; a change that removes or renames a field makes a new one. */
export const CONTACT_EXPORT_FORMAT = 'feedback-service.contact-export.v1';

/** How a vote or comment was found to be the person's: by the contact it is linked to, by the address's hash, or by the workspace's user id. */
export const linkedBySchema = z.array(z.enum(['contact_id', 'email_hash', 'user_id']));

/**
 * Everything the service holds about one person, as `feedback-service contact export` writes it (docs/privacy.md
 * describes every field). After an erasure only `erasure` is left.
 */
export const contactExportSchema = z.strictObject({
  format: z.literal(CONTACT_EXPORT_FORMAT),
  exportedAt: timestampSchema,
  organizationId: z.string(),
  contactId: z.string(),
  /** The contact, as `GET /v1/contacts/{id}` shows it; null once erased. */
  contact: contactSchema.nullable(),
  /** The workspace's other contacts with the same address: the same person, as far as mail and this export go. */
  sameAddress: z.array(contactSchema),
  /** The companies the person's contacts belong to (by contact): the accounts identify named them members of. */
  companies: z.array(companyRefSchema.extend({ contactId: z.string() })),
  /** How the contact came to be and on what basis it may be emailed. */
  consent: z
    .strictObject({
      source: z.string(),
      consentBasis: z.string(),
      /** The spec's words for this basis. */
      meaning: z.string(),
    })
    .nullable(),
  /** Posts attached to the contact, soft-deleted ones too. */
  posts: z.array(postSchema.extend({ authorName: z.string().nullable() })),
  votes: z.array(
    z.strictObject({
      id: z.string(),
      postId: z.string(),
      postTitle: z.string(),
      userId: z.string().nullable(),
      createdAt: timestampSchema,
      linkedBy: linkedBySchema,
    }),
  ),
  comments: z.array(
    z.strictObject({
      id: z.string(),
      postId: z.string(),
      parentId: z.string().nullable(),
      bodyText: z.string(),
      authorName: z.string().nullable(),
      authorUserId: z.string().nullable(),
      createdAt: timestampSchema,
      linkedBy: linkedBySchema,
    }),
  ),
  notifications: z.strictObject({
    digest: z.enum(['instant', 'hourly']),
    subscriptions: z.array(z.strictObject({ topic: z.string(), via: z.string(), createdAt: timestampSchema })),
    unsubscribes: z.array(
      z.strictObject({
        topic: z.string(),
        via: z.string(),
        createdAt: timestampSchema,
        undoneAt: timestampSchema.nullable(),
      }),
    ),
    mail: z.array(
      z.strictObject({
        id: z.string(),
        kind: z.string(),
        status: z.string(),
        email: z.string(),
        changeId: z.string(),
        createdAt: timestampSchema,
        sentAt: timestampSchema.nullable(),
        failedAt: timestampSchema.nullable(),
      }),
    ),
  }),
  portal: z.strictObject({
    sessions: z.array(
      z.strictObject({
        email: z.string(),
        name: z.string().nullable(),
        verified: z.boolean(),
        createdAt: timestampSchema,
        expiresAt: timestampSchema,
      }),
    ),
    pendingCodes: z.array(
      z.strictObject({
        email: z.string(),
        name: z.string().nullable(),
        createdAt: timestampSchema,
        expiresAt: timestampSchema,
      }),
    ),
  }),
  /** Events (webhook payloads, as kept for the delivery log and replays) that carry the person's data. */
  events: z.array(
    z.strictObject({
      id: z.string(),
      type: z.string(),
      createdAt: timestampSchema,
      payload: z.record(z.string(), z.unknown()),
    }),
  ),
  /** What an erasure of this contact left: the salted hash of the address on the suppression list. */
  erasure: z
    .strictObject({
      erasedAt: timestampSchema,
      suppressionDigest: z.string(),
      /** The erasure's `contact.deleted` is still being delivered to webhooks (it is redacted once its deliveries end). */
      deletionEventPending: z.boolean(),
    })
    .nullable(),
});
export type ContactExport = z.infer<typeof contactExportSchema>;

/** What `feedback-service contact erase` did. */
export interface ErasureReport {
  /** The contact asked for and every other contact of the workspace with its address. */
  contactIds: string[];
  erasedAt: string;
  votes: number;
  comments: number;
  posts: number;
  mail: number;
  events: number;
  sessions: number;
  /** Kept answers of idempotent requests that carried the contact. */
  idempotentAnswers: number;
  /** Whether the address is on the suppression list (a contact without an email leaves nothing to suppress). */
  suppressed: boolean;
}
