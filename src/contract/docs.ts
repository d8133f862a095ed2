// What people and agents read of each operation: its summary, description and tool title. Kept beside each row
// (rows/, `*_DOCS`) and out of the client's bundle: nothing the client imports uses it, and it is built by a pure call
// so that a bundler drops it.
import type { OperationDoc } from './definition.js';
import type { OperationId } from './operations.js';
import { BOARD_DOCS } from './rows/boards.js';
import { CHANGELOG_DOCS } from './rows/changelog.js';
import { COMMENT_DOCS } from './rows/comments.js';
import { COMPANY_DOCS } from './rows/companies.js';
import { CONTACT_DOCS } from './rows/contacts.js';
import { INTEGRATION_DOCS } from './rows/integrations.js';
import { KEY_DOCS } from './rows/keys.js';
import { POST_DOCS } from './rows/posts.js';
import { TAG_DOCS } from './rows/tags.js';
import { VOTE_DOCS } from './rows/votes.js';
import { WEBHOOK_DOCS } from './rows/webhooks.js';

export const OPERATION_DOCS: Record<OperationId, OperationDoc> = /* @__PURE__ */ Object.assign(
  {},
  CONTACT_DOCS,
  COMPANY_DOCS,
  BOARD_DOCS,
  POST_DOCS,
  VOTE_DOCS,
  COMMENT_DOCS,
  TAG_DOCS,
  CHANGELOG_DOCS,
  KEY_DOCS,
  WEBHOOK_DOCS,
  INTEGRATION_DOCS,
);
