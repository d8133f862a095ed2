import { defineEntity, p } from '@mikro-orm/core';
import { expressionIndex, onlyOn } from './dialects.js';
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
    // Partial: nearly every post is merged into nothing, and a full index made SQLite scan once ANALYZE saw that.
    expressionIndex('post_merged_into_idx', 'on "post" ("merged_into_id") where "merged_into_id" is not null'),
    // A contact's live posts newest first (GET /v1/contacts/{id}/posts), without visiting deleted ones.
    // SQLite's first migration indexed every foreign key; this one leads no other index, so it stayed.
    onlyOn('sqlite', { name: 'post_organization_id_index', properties: 'organization' }),
    onlyOn('postgresql', expressionIndex('post_contact_live_idx', 'on "post" ("contact_id", "created_at" desc, "id" desc) where "deleted_at" is null')),
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
