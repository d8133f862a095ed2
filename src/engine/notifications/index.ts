// Notification mail: who may be emailed (the consent rule, once), the outbox rows a change writes in its transaction,
// their words, the signed links in them, and a person's preferences and unsubscribes.
export { MAIL_PURPOSES, mayEmail, type MailFacts, type MailPurpose } from './consent.js';
export { ACCOUNT_MAIL_KINDS, openAccountMail, queueAccountMail, renderAccountMail, type AccountMail } from './account.js';
export { renderMail, type MailPayload, type PostRef } from './messages.js';
export { DIGEST_AFTER, notifyChangelog, notifyPostStatus, notifyReply, notifyWebhookDisabled, type Change } from './outbox.js';
export { DIGESTS, MAX_FOLLOWED_POSTS, type Digest, type MailPreferences, type MailPreferencesChange } from './preferences.js';
export { createNotificationsService, type NotificationsService } from './service.js';
export { MAIL_TOKEN_DAYS, createMailTokens, type MailRecipient, type MailTokens } from './tokens.js';
export { CHANGELOG_TOPIC, postIdOf, postTopic } from './topics.js';
