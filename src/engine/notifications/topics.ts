// What a person can subscribe to and unsubscribe from: one post's updates, the changelog, all post updates, everything.
/** The topic of one post's updates, and back: the post a topic is about (null for another topic). */
export const postTopic = (postId: string) => `post:${postId}`;
export const postIdOf = (topic: string): string | null => (topic.startsWith('post:') ? topic.slice(5) : null);
export const CHANGELOG_TOPIC = 'changelog';
