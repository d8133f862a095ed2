// The contract's rows for the changelog: drafts written and linked to the posts they ship, published once.
import type { OperationDefinition, OperationDocs } from '../definition.js';

export const CHANGELOG = {
  listChangelogEntries: {
    method: 'GET',
    path: '/v1/changelog',
    scope: 'read',
    resource: 'changelog',
    query: 'listChangelogQuerySchema',
    answers: { page: 'changelogEntryPageSchema' },
    tool: 'list_changelog_entries',
    client: 'changelog.list',
  },
  createChangelogEntry: {
    method: 'POST',
    path: '/v1/changelog',
    scope: 'read:write',
    resource: 'changelog',
    body: 'createChangelogEntryBodySchema',
    answers: { data: 'changelogEntryDetailSchema', statuses: [201] },
    idempotency: 'key',
    tool: 'create_changelog_entry',
    client: 'changelog.create',
  },
  retrieveChangelogEntry: {
    method: 'GET',
    path: '/v1/changelog/:entryId',
    scope: 'read',
    resource: 'changelog',
    answers: { data: 'changelogEntryDetailSchema' },
    tool: 'get_changelog_entry',
    client: 'changelog.retrieve',
  },
  updateChangelogEntry: {
    method: 'PATCH',
    path: '/v1/changelog/:entryId',
    scope: 'read:write',
    resource: 'changelog',
    body: 'updateChangelogEntryBodySchema',
    answers: { data: 'changelogEntryDetailSchema' },
    errors: [409],
    tool: 'update_changelog_entry',
    client: 'changelog.update',
  },
  deleteChangelogEntry: {
    method: 'DELETE',
    path: '/v1/changelog/:entryId',
    scope: 'read:write',
    resource: 'changelog',
    answers: { data: 'deletedSchema' },
    errors: [409],
    tool: 'delete_changelog_entry',
    client: 'changelog.delete',
  },
  publishChangelogEntry: {
    method: 'POST',
    path: '/v1/changelog/:entryId/publish',
    scope: 'read:write',
    resource: 'changelog',
    body: 'publishChangelogEntryBodySchema',
    answers: { data: 'changelogEntryDetailSchema' },
    idempotency: 'key',
    errors: [409],
    tool: 'publish_changelog_entry',
    client: 'changelog.publish',
  },
} as const satisfies Record<string, OperationDefinition>;

/** What people and agents read of these operations (the OpenAPI document, the tools); the client carries none of it. */
export const CHANGELOG_DOCS = {
  listChangelogEntries: {
    summary: 'List changelog entries',
    description:
      "The workspace's changelog entries, newest first, each with the posts it ships; filter by boardId and status (draft, published). Returns a page: follow nextCursor for more.",
    title: 'List changelog entries',
  },
  createChangelogEntry: {
    summary: 'Write a changelog draft',
    description:
      'Write a draft entry on a board (title, Markdown body, and the posts it ships, at most 50). Nobody sees it until it is published.',
    title: 'Write a changelog draft',
  },
  retrieveChangelogEntry: {
    summary: 'Retrieve a changelog entry',
    description: 'One changelog entry, draft or published, with the posts it ships.',
    title: 'Get a changelog entry',
  },
  updateChangelogEntry: {
    summary: 'Change a changelog draft',
    description:
      "Change a draft's title, body or the posts it ships (the list replaces the last). A published entry is 409: what was published stays as it was mailed.",
    title: 'Update a changelog draft',
  },
  deleteChangelogEntry: {
    summary: 'Delete a changelog draft',
    description: 'Delete a draft. A published entry is 409: it was announced and mailed.',
    title: 'Delete a changelog draft',
  },
  publishChangelogEntry: {
    summary: 'Publish a changelog entry',
    description:
      'Publish a draft, once (again is 409): changelog.published, and one mail to each changelog subscriber and each person of the posts it ships that the consent rule lets through. shipPosts: true moves the linked posts to shipped too (post.status_changed each).',
    title: 'Publish a changelog entry',
  },
} satisfies OperationDocs<typeof CHANGELOG>;
