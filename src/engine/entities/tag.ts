import { defineEntity, p } from '@mikro-orm/core';
import { Organization } from './organization.js';
import { Post } from './post.js';

/** A workspace's tag; a post carries at most three. */
export const Tag = defineEntity({
  name: 'Tag',
  tableName: 'tag',
  uniques: [{ name: 'tag_org_slug_unique', properties: ['organization', 'slug'] }],
  properties: {
    id: p.string().primary().length(40),
    organization: () => p.manyToOne(Organization).deleteRule('cascade'),
    name: p.string().length(100),
    slug: p.string().length(80),
    createdAt: p.datetime().length(3),
  },
});

/** Which tags a post carries. */
export const PostTag = defineEntity({
  name: 'PostTag',
  tableName: 'post_tag',
  // The posts of a tag (and a tag's deletion): the primary key leads with the post.
  indexes: [{ name: 'post_tag_tag_id_index', properties: ['tag'] }],
  properties: {
    post: () => p.manyToOne(Post).primary().deleteRule('cascade'),
    tag: () => p.manyToOne(Tag).primary().deleteRule('cascade'),
  },
});
