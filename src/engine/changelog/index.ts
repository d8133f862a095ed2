// The changelog: entries per board, drafts published once (with their event and mail).
export { CHANGELOG_POSTS_MAX, createChangelogService, type ChangelogEdit, type ChangelogService } from './service.js';
