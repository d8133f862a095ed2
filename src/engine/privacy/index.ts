// Data-subject requests: a person's export, their erasure, and the chore that finishes erasures once delivered.

export { createPrivacyActions } from './actions.js';
export { redactDeliveredErasures } from './erase.js';
export type { PrivacyContext } from './person.js';
export { createPrivacyService, type PrivacyService } from './service.js';
