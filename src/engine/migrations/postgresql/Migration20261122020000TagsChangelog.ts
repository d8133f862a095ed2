import { PostgresqlMigration } from './migration.js';

/** Tags (at most three per post) and changelog entries per board. */
export class Migration20261122020000TagsChangelog extends PostgresqlMigration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "changelog_entry" ("id" varchar(40) not null, "organization_id" varchar(40) not null, "board_id" varchar(40) not null, "title" varchar(200) not null, "slug" varchar(80) not null, "body" text not null, "status" varchar(20) not null, "published_at" timestamptz(3) null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "changelog_entry_pkey" primary key ("id"))',
    );
    this.addSql('create index "changelog_board_created_idx" on "changelog_entry" ("board_id", "created_at", "id")');
    this.addSql(
      'alter table "changelog_entry" add constraint "changelog_board_slug_unique" unique ("board_id", "slug")',
    );
    this.addSql(
      'create table "tag" ("id" varchar(40) not null, "organization_id" varchar(40) not null, "name" varchar(100) not null, "slug" varchar(80) not null, "created_at" timestamptz(3) not null, constraint "tag_pkey" primary key ("id"))',
    );
    this.addSql('alter table "tag" add constraint "tag_org_slug_unique" unique ("organization_id", "slug")');
    this.addSql(
      'create table "post_tag" ("post_id" varchar(40) not null, "tag_id" varchar(40) not null, constraint "post_tag_pkey" primary key ("post_id", "tag_id"))',
    );
    this.addSql(
      'alter table "changelog_entry" add constraint "changelog_entry_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "changelog_entry" add constraint "changelog_entry_board_id_foreign" foreign key ("board_id") references "board" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "tag" add constraint "tag_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "post_tag" add constraint "post_tag_post_id_foreign" foreign key ("post_id") references "post" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "post_tag" add constraint "post_tag_tag_id_foreign" foreign key ("tag_id") references "tag" ("id") on update cascade on delete cascade',
    );
    // Posts by tag (the FK's other side).
    this.addSql('create index "post_tag_tag_id_index" on "post_tag" ("tag_id")');
  }
}
