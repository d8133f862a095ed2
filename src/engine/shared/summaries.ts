import type { EventPost } from '../../schemas/events.js';

/** The post as every `post.*` event carries it. */
export function postSummary(post: Pick<EventPost, keyof EventPost>): EventPost {
  return { id: post.id, title: post.title, slug: post.slug, status: post.status, createdAt: post.createdAt };
}
