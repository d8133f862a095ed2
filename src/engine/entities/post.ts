import { defineEntity, p } from '@mikro-orm/core';
import { Board } from './board.js';
import { Contact } from './contact.js';
import { Organization } from './organization.js';

/** A post on a board, optionally attached to the contact who filed it. */
export const Post = defineEntity({
  name: 'Post',
  tableName: 'post',
  uniques: [{ name: 'post_board_slug_unique', properties: ['board', 'slug'] }],
  indexes: [
    { name: 'post_contact_created_idx', properties: ['contact', 'createdAt', 'id'] },
    { name: 'post_board_created_idx', properties: ['board', 'createdAt', 'id'] },
    { name: 'post_board_votes_idx', properties: ['board', 'voteCount', 'id'] },
    { name: 'post_merged_into_idx', properties: ['mergedIntoId'] },
  ],
  properties: {
    id: p.string().primary().length(40),
    organization: () => p.manyToOne(Organization).deleteRule('cascade'),
    board: () => p.manyToOne(Board).deleteRule('cascade'),
    contact: () => p.manyToOne(Contact).nullable().deleteRule('set null'),
    authorUserId: p.string().length(255).nullable(),
    /** The name an end-user gave on the portal, shown beside the post. */
    authorName: p.string().length(200).nullable(),
    title: p.string().length(200),
    slug: p.string().length(80),
    body: p.text(),
    bodyText: p.text(),
    status: p.string().length(20),
    moderationStatus: p.string().length(20),
    hideFromRoadmap: p.boolean().default(false),
    roadmapOrder: p.integer().nullable(),
    mergedIntoId: p.string().length(40).nullable(),
    commentCount: p.integer().default(0),
    voteCount: p.integer().default(0),
    createdAt: p.datetime().length(3),
    updatedAt: p.datetime().length(3),
    deletedAt: p.datetime().length(3).nullable(),
  },
});
