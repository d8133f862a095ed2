// Posts: feedback filed on a board (create, change, merge, moderate, delete), and the tags they carry.

export { requireLivePost } from './references.js';
export { createPostsService, type PostsService } from './service.js';
export { createTagsService, type Tag, type TagsService } from './tags.js';
export { insertPost, type NewPost, postSummary } from './write.js';
