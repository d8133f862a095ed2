import { defineEntity, p } from '@mikro-orm/core';
import { Organization } from './organization.js';
import { Post } from './post.js';

/** One vote per voter and post; the email hash feeds a contact's approximate voteCount. */
export const Vote = defineEntity({
  name: 'Vote',
  tableName: 'vote',
  uniques: [{ name: 'vote_post_voter_unique', properties: ['post', 'voterKey'] }],
  indexes: [{ name: 'vote_org_email_hash_idx', properties: ['organization', 'emailHash'] }],
  properties: {
    id: p.string().primary().length(40),
    organization: () => p.manyToOne(Organization).deleteRule('cascade'),
    post: () => p.manyToOne(Post).deleteRule('cascade'),
    /** The workspace's user id of the voter; null for anonymous email-verified voters. */
    userId: p.string().length(255).nullable(),
    emailHash: p.string().length(64).nullable(),
    /** `u:<userId>` or `e:<emailHash>`: what makes a voter unique on a post. */
    voterKey: p.string().length(300),
    contactId: p.string().length(40).nullable(),
    createdAt: p.datetime().length(3),
  },
});
