// What end-users do on public boards: post, vote, comment, each with its contact (notify-me), subscription and events.

export { comment } from './comment.js';
export { filePost } from './post.js';
export { createInteractionsService, type InteractionsService } from './service.js';
export { castVote } from './vote.js';
