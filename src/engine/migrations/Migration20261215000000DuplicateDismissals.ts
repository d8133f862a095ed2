import { forBothDialects } from './both.js';

/** Pairs of posts the team said are not duplicates (the console's possible duplicates, docs/search.md). */
export const DuplicateDismissals = forBothDialects({
  sqlite: [
    'create table `duplicate_dismissal` (`post_id` text not null, `other_id` text not null, `organization_id` text not null, `created_at` datetime not null, constraint `duplicate_dismissal_organization_id_foreign` foreign key(`organization_id`) references `organization`(`id`) on delete cascade on update cascade, primary key (`post_id`, `other_id`))',
    'create index `duplicate_dismissal_other_idx` on `duplicate_dismissal` (`other_id`)',
  ],
  postgresql: [
    'create table "duplicate_dismissal" ("post_id" varchar(40) not null, "other_id" varchar(40) not null, "organization_id" varchar(40) not null, "created_at" timestamptz(3) not null, constraint "duplicate_dismissal_pkey" primary key ("post_id", "other_id"))',
    'create index "duplicate_dismissal_other_idx" on "duplicate_dismissal" ("other_id")',
    'alter table "duplicate_dismissal" add constraint "duplicate_dismissal_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade',
  ],
});
