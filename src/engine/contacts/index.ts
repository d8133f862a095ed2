// Contacts: one end-user of the workspace's customer each (identify, create, read, change, delete, list, backfill).
export { createContactsService, type ContactsService } from './service.js';
export { readContactCap } from './caps.js';
export { CONFLICT_MESSAGE, newContactOf, toContact, type ContactRecord, type NewContact } from './records.js';
export { insertContact } from './write.js';
export { identify } from './identify.js';
export { CONTACT_ACTIVITY_LIMIT, type ContactActivity } from './activity.js';
