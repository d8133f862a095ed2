import { PostgresqlMigration } from './migration.js';

/** The foundation schema's statements, in order. */
const STATEMENTS = [
  'create table "organization" ("id" varchar(40) not null, "name" varchar(200) not null, "plan" varchar(20) not null, "billing_state" varchar(20) not null, "contact_cap_override" boolean not null default false, "contact_cap" int null, "rate_limit" int null, "admin_emails" jsonb not null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "organization_pkey" primary key ("id"))',
  'create table "event" ("id" varchar(40) not null, "organization_id" varchar(40) not null, "type" varchar(40) not null, "payload" text not null, "created_at" timestamptz(3) not null, constraint "event_pkey" primary key ("id"))',
  'create index "event_org_created_idx" on "event" ("organization_id", "created_at", "id")',
  'create table "contact" ("id" varchar(40) not null, "organization_id" varchar(40) not null, "external_user_id" varchar(255) null, "email" varchar(320) null, "email_hash" varchar(64) null, "name" varchar(200) null, "plan" varchar(100) null, "mrr_cents" int null, "currency" varchar(3) null, "metadata" jsonb not null, "source" varchar(40) not null, "consent_basis" varchar(40) not null, "first_seen_at" timestamptz(3) not null, "last_seen_at" timestamptz(3) not null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "contact_pkey" primary key ("id"))',
  'create index "contact_org_created_idx" on "contact" ("organization_id", "created_at", "id")',
  'create index "contact_org_last_seen_idx" on "contact" ("organization_id", "last_seen_at", "id")',
  'create index "contact_org_mrr_idx" on "contact" ("organization_id", "mrr_cents", "id")',
  'create index "contact_org_email_hash_idx" on "contact" ("organization_id", "email_hash")',
  'alter table "contact" add constraint "contact_org_external_user_id_unique" unique ("organization_id", "external_user_id")',
  'create table "board" ("id" varchar(40) not null, "organization_id" varchar(40) not null, "name" varchar(200) not null, "slug" varchar(80) not null, "is_public" boolean not null default true, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "board_pkey" primary key ("id"))',
  'alter table "board" add constraint "board_org_slug_unique" unique ("organization_id", "slug")',
  'create table "api_key" ("id" varchar(40) not null, "organization_id" varchar(40) not null, "key_hash" varchar(64) not null, "scope" varchar(20) not null, "revoked_at" timestamptz(3) null, "created_at" timestamptz(3) not null, constraint "api_key_pkey" primary key ("id"))',
  'alter table "api_key" add constraint "api_key_key_hash_unique" unique ("key_hash")',
  'create table "post" ("id" varchar(40) not null, "organization_id" varchar(40) not null, "board_id" varchar(40) not null, "contact_id" varchar(40) null, "author_user_id" varchar(255) null, "title" varchar(200) not null, "slug" varchar(80) not null, "body" text not null, "body_text" text not null, "status" varchar(20) not null, "moderation_status" varchar(20) not null, "hide_from_roadmap" boolean not null default false, "roadmap_order" int null, "merged_into_id" varchar(40) null, "comment_count" int not null default 0, "vote_count" int not null default 0, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, "deleted_at" timestamptz(3) null, constraint "post_pkey" primary key ("id"))',
  'create index "post_contact_created_idx" on "post" ("contact_id", "created_at", "id")',
  'create index "post_board_created_idx" on "post" ("board_id", "created_at", "id")',
  'alter table "post" add constraint "post_board_slug_unique" unique ("board_id", "slug")',
  'create table "comment" ("id" varchar(40) not null, "organization_id" varchar(40) not null, "post_id" varchar(40) not null, "parent_id" varchar(40) null, "author_user_id" varchar(255) null, "email_hash" varchar(64) null, "contact_id" varchar(40) null, "body_text" text not null, "created_at" timestamptz(3) not null, constraint "comment_pkey" primary key ("id"))',
  'create index "comment_org_email_hash_idx" on "comment" ("organization_id", "email_hash")',
  'create index "comment_post_created_idx" on "comment" ("post_id", "created_at")',
  'create table "vote" ("id" varchar(40) not null, "organization_id" varchar(40) not null, "post_id" varchar(40) not null, "user_id" varchar(255) null, "email_hash" varchar(64) null, "voter_key" varchar(300) not null, "contact_id" varchar(40) null, "created_at" timestamptz(3) not null, constraint "vote_pkey" primary key ("id"))',
  'create index "vote_org_email_hash_idx" on "vote" ("organization_id", "email_hash")',
  'alter table "vote" add constraint "vote_post_voter_unique" unique ("post_id", "voter_key")',
  'alter table "event" add constraint "event_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade',
  'alter table "contact" add constraint "contact_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade',
  'alter table "board" add constraint "board_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade',
  'alter table "api_key" add constraint "api_key_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade',
  'alter table "post" add constraint "post_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade',
  'alter table "post" add constraint "post_board_id_foreign" foreign key ("board_id") references "board" ("id") on update cascade on delete cascade',
  'alter table "post" add constraint "post_contact_id_foreign" foreign key ("contact_id") references "contact" ("id") on update cascade on delete set null',
  'alter table "comment" add constraint "comment_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade',
  'alter table "comment" add constraint "comment_post_id_foreign" foreign key ("post_id") references "post" ("id") on update cascade on delete cascade',
  'alter table "vote" add constraint "vote_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade',
  'alter table "vote" add constraint "vote_post_id_foreign" foreign key ("post_id") references "post" ("id") on update cascade on delete cascade',
  // q search: case-insensitive substring over email and name stays fast at a million contacts.
  'create extension if not exists pg_trgm',
  'create index "contact_email_trgm_idx" on "contact" using gin ("email" gin_trgm_ops)',
  'create index "contact_name_trgm_idx" on "contact" using gin ("name" gin_trgm_ops)',
  // A contact's post count and per-contact listing skip soft-deleted posts.
  'create index "post_contact_live_idx" on "post" ("contact_id", "created_at" desc, "id" desc) where "deleted_at" is null',
];

/** The foundation schema: organizations, keys, contacts, boards, posts, votes, comments, events. */
export class Migration20261122000000Initial extends PostgresqlMigration {
  override async up(): Promise<void> {
    for (const statement of STATEMENTS) this.addSql(statement);
  }
}
