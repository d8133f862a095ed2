// The contract's rows for tags: the workspace's tags, and the tags a post carries.
import type { OperationDefinition, OperationDocs } from '../definition.js';

export const TAGS = {
  listTags: {
    method: 'GET',
    path: '/v1/tags',
    scope: 'read',
    resource: 'tags',
    query: 'pageQuerySchema',
    answers: { page: 'tagPageSchema' },
    tool: 'list_tags',
    client: 'tags.list',
  },
  createTag: {
    method: 'POST',
    path: '/v1/tags',
    scope: 'read:write',
    resource: 'tags',
    body: 'tagBodySchema',
    answers: { data: 'tagSchema', statuses: [201] },
    idempotency: 'key',
    errors: [409],
    tool: 'create_tag',
    client: 'tags.create',
  },
  updateTag: {
    method: 'PATCH',
    path: '/v1/tags/:tagId',
    scope: 'read:write',
    resource: 'tags',
    body: 'tagBodySchema',
    answers: { data: 'tagSchema' },
    errors: [409],
    tool: 'update_tag',
    client: 'tags.update',
  },
  deleteTag: {
    method: 'DELETE',
    path: '/v1/tags/:tagId',
    scope: 'read:write',
    resource: 'tags',
    answers: { data: 'deletedSchema' },
    tool: 'delete_tag',
    client: 'tags.delete',
  },
  setPostTags: {
    method: 'PUT',
    path: '/v1/posts/:postId/tags',
    scope: 'read:write',
    resource: 'tags',
    body: 'setPostTagsBodySchema',
    answers: { data: 'postDetailSchema' },
    tool: 'set_post_tags',
    client: 'tags.setForPost',
  },
} as const satisfies Record<string, OperationDefinition>;

/** What people and agents read of these operations (the OpenAPI document, the tools); the client carries none of it. */
export const TAG_DOCS = {
  listTags: {
    summary: 'List tags',
    description: "The workspace's tags, oldest first, as a page.",
    title: 'List tags',
  },
  createTag: {
    summary: 'Create a tag',
    description:
      'Create a tag (name, 1 to 100 characters). Its slug derives from the name; one another tag has is 409.',
    title: 'Create a tag',
  },
  updateTag: {
    summary: 'Rename a tag',
    description: 'Rename a tag; its slug follows the name (409 when another tag has it). The posts keep it.',
    title: 'Rename a tag',
  },
  deleteTag: {
    summary: 'Delete a tag',
    description: 'Delete a tag: every post that carried it loses it (each with post.updated, changes.tagIds).',
    title: 'Delete a tag',
  },
  setPostTags: {
    summary: "Set a post's tags",
    description:
      "Make the post's tags exactly tagIds (at most 3; [] takes them all off). Answers the post with its tags and impact; emits post.updated when they change.",
    title: "Set a post's tags",
  },
} satisfies OperationDocs<typeof TAGS>;
