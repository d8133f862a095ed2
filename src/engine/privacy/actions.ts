import { type Actor, actAs, auditOf } from '../members/index.js';
import type { PrivacyContext } from './person.js';
import { createPrivacyService } from './service.js';

/** A person's data-subject requests, made by one team member: owners and admins, audited by the contact's id only. */
export function createPrivacyActions(ctx: PrivacyContext, actor: Actor) {
  const audit = auditOf('contact');
  return {
    /** The data-subject access request: everything held about the person. */
    export: (contactId: string) =>
      actAs(ctx, actor, 'manage', async (inner) => ({
        result: await createPrivacyService(inner).export(contactId),
        audit: audit('contact.exported', contactId),
      })),
    /** The erasure request; the audit entry names the contact's id only. */
    erase: (contactId: string) =>
      actAs(ctx, actor, 'manage', async (inner) => ({
        result: await createPrivacyService(inner).erase(contactId),
        audit: audit('contact.erased', contactId),
      })),
  };
}
