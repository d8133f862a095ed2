import { PostgresqlMigration } from './migration.js';

/**
 * Taking part on the portal: the workspace's portal settings (who may take part, moderation, which sites may frame it) and its token-signing secret (sealed; the previous one
 * keeps verifying until its grace period ends), the sessions of signed-in end-users, the one-time email codes, and the index a post page finds its merged posts by.
 */
export class Migration20261125000000PortalParticipation extends PostgresqlMigration {
  override async up(): Promise<void> {
    this.addSql(
      'alter table "organization" add column "portal_verified_only" boolean not null default false, add column "portal_moderation" boolean not null default false, add column "portal_secret" text null, add column "portal_previous_secret" text null, add column "portal_previous_secret_until" timestamptz(3) null, add column "portal_frame_origins" jsonb not null default \'[]\'',
    );
    this.addSql(
      'create table "portal_session" ("id" varchar(64) not null, "organization_id" varchar(40) not null, "external_user_id" varchar(255) null, "email" varchar(320) not null, "name" varchar(200) null, "verified" boolean not null, "created_at" timestamptz(3) not null, "expires_at" timestamptz(3) not null, constraint "portal_session_pkey" primary key ("id"))',
    );
    this.addSql('create index "portal_session_expires_idx" on "portal_session" ("expires_at")');
    this.addSql('create index "portal_session_organization_idx" on "portal_session" ("organization_id")');
    this.addSql(
      'alter table "portal_session" add constraint "portal_session_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'create table "portal_code" ("id" varchar(40) not null, "organization_id" varchar(40) not null, "email" varchar(320) not null, "name" varchar(200) null, "code_hash" varchar(64) not null, "action" text not null, "attempts" int not null default 0, "created_at" timestamptz(3) not null, "expires_at" timestamptz(3) not null, constraint "portal_code_pkey" primary key ("id"))',
    );
    this.addSql('create index "portal_code_expires_idx" on "portal_code" ("expires_at")');
    this.addSql('create index "portal_code_organization_idx" on "portal_code" ("organization_id")');
    // A post page lists the posts merged into it: without this, a scan of every post. Partial: nearly every post is
    // merged into nothing.
    this.addSql('create index "post_merged_into_idx" on "post" ("merged_into_id") where "merged_into_id" is not null');
    this.addSql(
      'alter table "portal_code" add constraint "portal_code_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade',
    );
  }
}
