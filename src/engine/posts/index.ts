// Posts: feedback filed on a board (create, change, merge, moderate, delete), and the tags they carry.

export { BULK_LIMIT, type BulkAction, createPostActions, type PostActions } from './actions.js';
export { type NewComment, writeComment } from './comments.js';
export { withDetail, withDetails } from './details.js';
export { requireLivePost } from './references.js';
export { createPostsService, POST_OPERATIONS, type PostsService } from './service.js';
export { createTagsService, TAG_OPERATIONS, type Tag, type TagsService } from './tags.js';
export { insertPost, type NewPost, writePost } from './write.js';
