import { createPostBodySchema, type Post } from '../../schemas/posts.js';
import { requireBoard } from '../boards/index.js';
import { parseInput, withSlugRetry } from '../shared/index.js';
import type { WorkspaceContext } from '../store/index.js';
import { assertReferences } from './references.js';
import { insertPost } from './write.js';

/** `POST /v1/boards/{boardId}/posts`: an API-created post (moderation `approved`), with `post.created`. */
export async function create(
  { db, organizationId, clock }: WorkspaceContext,
  boardId: string,
  body: unknown,
): Promise<Post> {
  const input = parseInput(createPostBodySchema, body);
  return withSlugRetry(() =>
    db.transaction(async (tx) => {
      await requireBoard(tx, organizationId, boardId);
      await assertReferences(tx, organizationId, { contactId: input.contactId, tagIds: input.tagIds });
      return insertPost(
        tx,
        organizationId,
        {
          boardId,
          title: input.title,
          body: input.body,
          contactId: input.contactId ?? null,
          tagIds: input.tagIds,
          moderationStatus: 'approved',
        },
        clock(),
      );
    }),
  );
}
