import { type PublicPostInput, publicPostInputSchema } from '../../schemas/interactions.js';
import type { Post } from '../../schemas/posts.js';
import { requireBoard } from '../boards/index.js';
import { insertPost } from '../posts/index.js';
import { FeedbackError, parseInput, withSlugRetry } from '../shared/index.js';
import type { WorkspaceContext } from '../store/index.js';
import { interactionContact, subscribeOptIn } from './contact.js';

/** File a post on a public board; `held` keeps it `pending` (and unannounced) until it is approved. */
export async function filePost(
  { db, organizationId, clock }: WorkspaceContext,
  input: PublicPostInput,
  options: { held?: boolean } = {},
): Promise<Post> {
  const i = parseInput(publicPostInputSchema, input);
  return withSlugRetry(() =>
    db.transaction(async (tx) => {
      const board = await requireBoard(tx, organizationId, i.boardId);
      if (!board.isPublic) throw new FeedbackError('ERR_NOT_FOUND', `No board with id ${i.boardId}.`);
      const now = clock();
      const contactId = await interactionContact(tx, organizationId, i, 'public_post', now);
      const post = await insertPost(
        tx,
        organizationId,
        {
          boardId: i.boardId,
          title: i.title,
          body: i.body,
          contactId,
          authorUserId: i.authorUserId ?? null,
          authorName: i.name ?? null,
          moderationStatus: options.held ? 'pending' : 'approved',
        },
        now,
      );
      await subscribeOptIn(tx, organizationId, contactId, i.notifyMe, post.id, now);
      return post;
    }),
  );
}
