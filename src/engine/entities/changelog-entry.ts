import { defineEntity, p } from '@mikro-orm/core';
import { Board } from './board.js';
import { Organization } from './organization.js';

/** A changelog entry of a board: a draft until it is published, once. */
export const ChangelogEntry = defineEntity({
  name: 'ChangelogEntry',
  tableName: 'changelog_entry',
  uniques: [{ name: 'changelog_board_slug_unique', properties: ['board', 'slug'] }],
  indexes: [{ name: 'changelog_board_created_idx', properties: ['board', 'createdAt', 'id'] }],
  properties: {
    id: p.string().primary().length(40),
    organization: () => p.manyToOne(Organization).deleteRule('cascade'),
    board: () => p.manyToOne(Board).deleteRule('cascade'),
    title: p.string().length(200),
    slug: p.string().length(80),
    body: p.text(),
    /** `draft` or `published`. */
    status: p.string().length(20),
    publishedAt: p.datetime().length(3).nullable(),
    createdAt: p.datetime().length(3),
    updatedAt: p.datetime().length(3),
  },
});
