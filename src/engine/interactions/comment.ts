import { type Comment, type PublicCommentInput, publicCommentInputSchema } from '../../schemas/interactions.js';
import { notifyReply } from '../notifications/index.js';
import { hashEmail, newId, parseInput, validationError } from '../shared/index.js';
import { comments, emit, type WorkspaceContext } from '../store/index.js';
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
    const written: Comment = {
      id: newId('cmt', now.getTime()),
      postId: post.id,
      parentId: i.parentId ?? null,
      authorUserId: i.authorUserId ?? null,
      contactId,
      bodyText: i.bodyText,
      createdAt: now.toISOString(),
    };
    await comments.insert(tx, {
      ...written,
      organizationId,
      authorName: i.name ?? null,
      emailHash: hashEmail(i.email),
      createdAt: now,
    });
    await subscribeOptIn(tx, organizationId, contactId, i.notifyMe, post.id, now);
    const { contactId: _contactId, ...payload } = written;
    const changeId = await emit(
      tx,
      { event: 'comment.created', organizationId, boardId: post.boardId, comment: payload },
      now,
    );
    const about = { id: written.id, bodyText: written.bodyText, authorName: i.name ?? null, email: i.email };
    await notifyReply(tx, { organizationId, changeId, now }, post, about, parent ?? null);
    return written;
  });
}
