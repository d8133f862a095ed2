// The contract's rows for a post's discussion: its comments, and the team's internal notes.
import type { OperationDefinition, OperationDocs } from '../definition.js';

export const COMMENTS = {
  listPostComments: {
    method: 'GET',
    path: '/v1/posts/:postId/comments',
    scope: 'read',
    resource: 'comments',
    query: 'pageQuerySchema',
    answers: { page: 'postCommentPageSchema' },
    tool: 'list_post_comments',
    client: 'comments.list',
  },
  createComment: {
    method: 'POST',
    path: '/v1/posts/:postId/comments',
    scope: 'read:write',
    resource: 'comments',
    body: 'createCommentBodySchema',
    answers: { data: 'postCommentSchema', statuses: [201] },
    idempotency: 'key',
    tool: 'create_comment',
    client: 'comments.create',
  },
  updateComment: {
    method: 'PATCH',
    path: '/v1/comments/:commentId',
    scope: 'read:write',
    resource: 'comments',
    body: 'updateCommentBodySchema',
    answers: { data: 'postCommentSchema' },
    tool: 'update_comment',
    client: 'comments.update',
  },
  deleteComment: {
    method: 'DELETE',
    path: '/v1/comments/:commentId',
    scope: 'read:write',
    resource: 'comments',
    answers: { data: 'deletedSchema' },
    tool: 'delete_comment',
    client: 'comments.delete',
  },
  listPostNotes: {
    method: 'GET',
    path: '/v1/posts/:postId/notes',
    scope: 'read',
    resource: 'comments',
    query: 'pageQuerySchema',
    answers: { page: 'postNotePageSchema' },
    tool: 'list_post_notes',
    client: 'notes.list',
  },
  createNote: {
    method: 'POST',
    path: '/v1/posts/:postId/notes',
    scope: 'read:write',
    resource: 'comments',
    body: 'createNoteBodySchema',
    answers: { data: 'postNoteSchema', statuses: [201] },
    idempotency: 'key',
    tool: 'create_note',
    client: 'notes.create',
  },
} as const satisfies Record<string, OperationDefinition>;

/** What people and agents read of these operations (the OpenAPI document, the tools); the client carries none of it. */
export const COMMENT_DOCS = {
  listPostComments: {
    summary: "List a post's comments",
    description:
      "A post's comments, oldest first; a reply names its parent (parentId). Deleted comments are left out (a reply may name a parent no longer listed). Internal notes are never here: see listPostNotes. Returns a page: follow nextCursor for more.",
    title: "List a post's comments",
  },
  createComment: {
    summary: 'Comment on a post',
    description:
      "Comment on behalf of a contact (contactId) or as the team (official: true, signed with authorName if given); parentId replies to a comment of the same post. Counts on the post; emits comment.created; the post's author and the replied-to hear of it as on the portal.",
    title: 'Comment on a post',
  },
  updateComment: {
    summary: "Change a comment's text",
    description: 'Change the text of a comment. Emits comment.updated with changes.bodyText when it differs.',
    title: 'Update a comment',
  },
  deleteComment: {
    summary: 'Delete a comment',
    description:
      'Delete a comment: it leaves the post, its page and its count (its replies stay). Emits comment.deleted.',
    title: 'Delete a comment',
  },
  listPostNotes: {
    summary: "List a post's internal notes",
    description:
      "The team's internal notes on a post, oldest first: never shown on the portal or in a public read. Returns a page: follow nextCursor for more.",
    title: "List a post's notes",
  },
  createNote: {
    summary: 'Add an internal note to a post',
    description:
      'Add an internal note of the team (authorEmail: who writes it) to a post. Notes are never public and emit no event; they follow the post when it is merged.',
    title: 'Add a note',
  },
} satisfies OperationDocs<typeof COMMENTS>;
