import { defineEntity, p } from '@mikro-orm/core';
import { onlyOn } from './dialects.js';
import { Board } from './board.js';
import { Organization } from './organization.js';

/** A changelog entry of a board: a draft until it is published, once. */
export const ChangelogEntry = defineEntity({
  name: 'ChangelogEntry',
  tableName: 'changelog_entry',
  uniques: [{ name: 'changelog_board_slug_unique', properties: ['board', 'slug'] }],
  indexes: [
    { name: 'changelog_board_created_idx', properties: ['board', 'createdAt', 'id'] },
    // SQLite's first migration indexed every foreign key; this one leads no other index, so it stayed.
    onlyOn('sqlite', { name: 'changelog_entry_organization_id_index', properties: 'organization' }),
  ],
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
