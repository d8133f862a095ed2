import { type Comment, type PublicCommentInput, publicCommentInputSchema } from '../../schemas/interactions.js';
import { writeComment } from '../posts/index.js';
import { parseInput, validationError } from '../shared/index.js';
import { comments, type WorkspaceContext } from '../store/index.js';
import { interactionContact, publicPost, subscribeOptIn } from './contact.js';

/** Comment on a post, or reply to one of its comments; the post's author (and a reply's addressee) may hear of it. */
export async function comment(
  { db, organizationId, clock }: WorkspaceContext,
  input: PublicCommentInput,
): Promise<Comment> {
  const i = parseInput(publicCommentInputSchema, input);
  return db.transaction(async (tx) => {
    const post = await publicPost(tx, organizationId, i.postId);
    const parent = i.parentId ? await comments.findOnPost(tx, i.parentId, post.id) : null;
    if (i.parentId && !parent)
      throw validationError([
        { path: 'parentId', code: 'not_found', message: `No comment with id ${i.parentId} on this post.` },
      ]);
    const now = clock();
    const contactId = await interactionContact(tx, organizationId, i, 'public_comment', now);
    const author = { authorUserId: i.authorUserId ?? null, authorName: i.name ?? null, email: i.email ?? null };
    const written = await writeComment(
      tx,
      organizationId,
      post,
      { ...author, parentId: i.parentId ?? null, contactId, official: false, bodyText: i.bodyText },
      now,
      { parent: parent ?? null },
    );
    await subscribeOptIn(tx, organizationId, contactId, i.notifyMe, post.id, now);
    return written;
  });
}
