// The changelog: entries per board, drafts published once (with their event and mail).
export { createChangelogService, type ChangelogService } from './service.js';
