export * from './common.js';
export * from './errors.js';
export * from './contacts.js';
export * from './posts.js';
export * from './events.js';
export * from './whoami.js';
export * from './interactions.js';
export * from './webhooks.js';
