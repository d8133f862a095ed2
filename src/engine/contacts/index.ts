// Contacts: one end-user of the workspace's customer each (identify, create, read, change, delete, list, backfill).

export { createContactActions } from './actions.js';
export { CONTACT_ACTIVITY_LIMIT, type ContactActivity } from './activity.js';
export { readContactCap } from './caps.js';
export { identify } from './identify.js';
export { mergePeople, type PeopleMerged } from './one-person.js';
export { CONFLICT_MESSAGE, type ContactRecord, type NewContact, newContactOf, toContact } from './records.js';
export { CONTACT_OPERATIONS, type ContactsService, createContactsService } from './service.js';
export { applyContactPatch, insertContact } from './write.js';
