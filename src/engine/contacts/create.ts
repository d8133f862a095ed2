import { type Contact, createContactBodySchema } from '../../schemas/contacts.js';
import { FeedbackError, parseInput } from '../shared/index.js';
import type { WorkspaceContext } from '../store/index.js';
import { readContactCap } from './caps.js';
import { CONFLICT_MESSAGE, newContactOf, toContact } from './records.js';
import { insertContact } from './write.js';

/** `POST /v1/contacts`: always inserts; source `admin`, consentBasis `admin_created`. */
export async function create({ db, organizationId, clock }: WorkspaceContext, body: unknown): Promise<Contact> {
  const input = parseInput(createContactBodySchema, body);
  const record = await insertContact(
    db,
    organizationId,
    newContactOf(input, { source: 'admin', consentBasis: 'admin_created' }),
    clock(),
    await readContactCap(db, organizationId),
  );
  if (!record) throw new FeedbackError('ERR_CONFLICT', CONFLICT_MESSAGE);
  return toContact(record);
}
