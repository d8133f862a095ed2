import { forBothDialects } from './both.js';

/** What an import brought in (`feedback-service import`), by its id in the source tool: a rerun skips it. */
export const ImportRecords = forBothDialects({
  sqlite: [
    'create table `import_record` (`organization_id` text not null, `source` text not null, `kind` text not null, `source_id` text not null, `target_id` text not null, `created_at` datetime not null, constraint `import_record_organization_id_foreign` foreign key(`organization_id`) references `organization`(`id`) on delete cascade on update cascade, primary key (`organization_id`, `source`, `kind`, `source_id`))',
  ],
  postgresql: [
    'create table "import_record" ("organization_id" varchar(40) not null, "source" varchar(20) not null, "kind" varchar(20) not null, "source_id" varchar(255) not null, "target_id" varchar(40) not null, "created_at" timestamptz(3) not null, constraint "import_record_pkey" primary key ("organization_id", "source", "kind", "source_id"))',
    'alter table "import_record" add constraint "import_record_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade',
  ],
});
