import { defineEntity, p } from '@mikro-orm/core';
import { Organization } from './organization.js';

/** A board: where posts are filed. */
export const Board = defineEntity({
  name: 'Board',
  tableName: 'board',
  uniques: [{ name: 'board_org_slug_unique', properties: ['organization', 'slug'] }],
  properties: {
    id: p.string().primary().length(40),
    organization: () => p.manyToOne(Organization).deleteRule('cascade'),
    name: p.string().length(200),
    slug: p.string().length(80),
    isPublic: p.boolean().default(true),
    createdAt: p.datetime().length(3),
    updatedAt: p.datetime().length(3),
  },
});
