export { Organization } from './organization.js';
export { ApiKey } from './api-key.js';
export { Contact } from './contact.js';
export { Board } from './board.js';
export { Post } from './post.js';
export { Vote } from './vote.js';
export { Comment } from './comment.js';
export { Event } from './event.js';
