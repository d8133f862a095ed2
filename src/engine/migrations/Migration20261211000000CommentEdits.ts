import { forBothDialects } from './both.js';

/**
 * Comments are edited and deleted through the API (issue 50): when a comment last changed (null: never edited), and
 * when it was deleted (soft: the row stays for its replies' thread, its text emptied).
 */
export const CommentEdits = forBothDialects({
  sqlite: [
    'alter table `comment` add column `updated_at` datetime null',
    'alter table `comment` add column `deleted_at` datetime null',
  ],
  postgresql: [
    'alter table "comment" add column "updated_at" timestamptz(3) null',
    'alter table "comment" add column "deleted_at" timestamptz(3) null',
  ],
});
