import { type Actor, actAs } from '../members/index.js';
import { FeedbackError } from '../shared/index.js';
import type { WorkspaceContext } from '../store/index.js';
import { createContactsService } from './service.js';

/** An admin's attestation of the lawful basis for a contact made by hand: a sentence, kept in the audit log. */
function attestation(text: string): string {
  const said = text.trim();
  if (said.length < 3)
    throw new FeedbackError(
      'ERR_VALIDATION',
      'Say on what basis you add this person (for example: “customer since 2024, agreed to product updates”).',
    );
  if (said.length > 500) throw new FeedbackError('ERR_VALIDATION', 'The attestation must be at most 500 characters.');
  return said;
}

/** Contacts made by hand, as one team member: owners and admins, audited. */
export function createContactActions(ctx: WorkspaceContext, actor: Actor) {
  return {
    /**
     * A contact made by hand: as `POST /v1/contacts` (source `admin`, consent basis `admin_created`, `contact.created`),
     * with the admin's attestation of the lawful basis kept in the audit log.
     */
    create: (body: unknown, attested: string) =>
      actAs(ctx, actor, 'manage', async (inner) => {
        const said = attestation(attested);
        const contact = await createContactsService(inner).create(body);
        const detail = { attestation: said };
        return {
          result: contact,
          audit: { action: 'contact.created', resourceType: 'contact', resourceId: contact.id, detail },
        };
      }),
  };
}
