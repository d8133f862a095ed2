export { createContactsService, type ContactsService } from './service.js';
