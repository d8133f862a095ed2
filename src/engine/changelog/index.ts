// The changelog: entries per board, drafts published once (with their event and mail).
export { createChangelogActions } from './actions.js';
export { CHANGELOG_OPERATIONS, type ChangelogService, createChangelogService } from './api.js';
export { CHANGELOG_POSTS_MAX, type ChangelogEdit } from './service.js';
