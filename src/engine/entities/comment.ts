import { defineEntity, p } from '@mikro-orm/core';
import { Organization } from './organization.js';
import { Post } from './post.js';

/** A comment or reply; the email hash feeds a contact's approximate commentCount. */
export const Comment = defineEntity({
  name: 'Comment',
  tableName: 'comment',
  indexes: [
    { name: 'comment_org_email_hash_idx', properties: ['organization', 'emailHash'] },
    { name: 'comment_post_created_idx', properties: ['post', 'createdAt'] },
  ],
  properties: {
    id: p.string().primary().length(40),
    organization: () => p.manyToOne(Organization).deleteRule('cascade'),
    post: () => p.manyToOne(Post).deleteRule('cascade'),
    parentId: p.string().length(40).nullable(),
    authorUserId: p.string().length(255).nullable(),
    /** The name an end-user gave on the portal, shown beside the comment. */
    authorName: p.string().length(200).nullable(),
    emailHash: p.string().length(64).nullable(),
    contactId: p.string().length(40).nullable(),
    bodyText: p.text(),
    createdAt: p.datetime().length(3),
  },
});
