// Posts: feedback filed on a board (create, change, merge, moderate, delete), and the tags they carry.
export { createPostsService, type PostsService } from './service.js';
export { createTagsService, type Tag, type TagsService } from './tags.js';
export { requireLivePost } from './references.js';
export { insertPost, postSummary, type NewPost } from './write.js';
