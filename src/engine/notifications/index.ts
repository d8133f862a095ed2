// Notification mail: who may be emailed (the consent rule, once), the outbox rows a change writes in its transaction,
// their words, the signed links in them, and a person's preferences and unsubscribes.

export {
  ACCOUNT_MAIL_KINDS,
  type AccountMail,
  openAccountMail,
  queueAccountMail,
  renderAccountMail,
} from './account.js';
export { MAIL_PURPOSES, type MailFacts, type MailPurpose, mayEmail } from './consent.js';
export { type MailPayload, type PostRef, renderMail } from './messages.js';
export {
  type Change,
  DIGEST_AFTER,
  notifyChangelog,
  notifyPostStatus,
  notifyReply,
  notifyWebhookDisabled,
} from './outbox.js';
export {
  DIGESTS,
  type Digest,
  MAX_FOLLOWED_POSTS,
  type MailPreferences,
  type MailPreferencesChange,
} from './preferences.js';
export { createNotificationsService, type NotificationsService } from './service.js';
export { createMailTokens, MAIL_TOKEN_DAYS, type MailRecipient, type MailTokens } from './tokens.js';
export { CHANGELOG_TOPIC, postIdOf, postTopic } from './topics.js';
