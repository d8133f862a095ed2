import { PostgresqlMigration } from './migration.js';

/**
 * The team console (docs/console.md): team members per workspace with their role, the one-time sign-in links and
 * codes, the team's browser sessions, the audit log of what members did, the team's internal notes on posts, and
 * which comments are the team's official replies, and each workspace's single sign-on (OpenID Connect).
 */
export class Migration20261129000000Team extends PostgresqlMigration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "audit_entry" ("id" varchar(40) not null, "organization_id" varchar(40) not null, "actor" varchar(320) not null, "action" varchar(60) not null, "resource_type" varchar(30) null, "resource_id" varchar(320) null, "ip" varchar(64) null, "detail" text not null, "created_at" timestamptz(3) not null, constraint "audit_entry_pkey" primary key ("id"))',
    );
    this.addSql('create index "audit_entry_org_created_idx" on "audit_entry" ("organization_id", "created_at", "id")');
    this.addSql('create index "audit_entry_actor_idx" on "audit_entry" ("actor")');
    this.addSql('create index "audit_entry_resource_idx" on "audit_entry" ("resource_id")');
    this.addSql(
      'create table "team_member" ("id" varchar(40) not null, "organization_id" varchar(40) not null, "email" varchar(320) not null, "name" varchar(200) null, "role" varchar(10) not null, "added_by" varchar(320) not null, "created_at" timestamptz(3) not null, "joined_at" timestamptz(3) null, "posts_seen_at" timestamptz(3) null, "posts_seen_before" timestamptz(3) null, constraint "team_member_pkey" primary key ("id"))',
    );
    this.addSql('create index "team_member_email_idx" on "team_member" ("email")');
    this.addSql(
      'alter table "team_member" add constraint "team_member_org_email_unique" unique ("organization_id", "email")',
    );
    this.addSql(
      'create table "team_session" ("id" varchar(64) not null, "email" varchar(320) not null, "method" varchar(10) not null, "created_at" timestamptz(3) not null, "seen_at" timestamptz(3) not null, "expires_at" timestamptz(3) not null, constraint "team_session_pkey" primary key ("id"))',
    );
    this.addSql('create index "team_session_email_idx" on "team_session" ("email")');
    this.addSql('create index "team_session_expires_idx" on "team_session" ("expires_at")');
    this.addSql(
      'create table "team_sign_in" ("id" varchar(40) not null, "email" varchar(320) not null, "token_hash" varchar(64) not null, "code_hash" varchar(64) not null, "attempts" int not null default 0, "created_at" timestamptz(3) not null, "expires_at" timestamptz(3) not null, constraint "team_sign_in_pkey" primary key ("id"))',
    );
    this.addSql('create index "team_sign_in_expires_idx" on "team_sign_in" ("expires_at")');
    this.addSql('alter table "team_sign_in" add constraint "team_sign_in_token_unique" unique ("token_hash")');
    this.addSql(
      'create table "post_note" ("id" varchar(40) not null, "organization_id" varchar(40) not null, "post_id" varchar(40) not null, "author_email" varchar(320) not null, "body_text" text not null, "created_at" timestamptz(3) not null, constraint "post_note_pkey" primary key ("id"))',
    );
    this.addSql('create index "post_note_post_created_idx" on "post_note" ("post_id", "created_at", "id")');
    this.addSql('create index "post_note_author_idx" on "post_note" ("author_email")');
    this.addSql(
      'create table "workspace_sso" ("organization_id" varchar(40) not null, "issuer" varchar(500) not null, "client_id" varchar(255) not null, "client_secret" text not null, "allowed_domains" text not null, "updated_at" timestamptz(3) not null, constraint "workspace_sso_pkey" primary key ("organization_id"))',
    );
    this.addSql(
      'alter table "workspace_sso" add constraint "workspace_sso_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade',
    );
    this.addSql('alter table "comment" add column "official" boolean not null default false');
    this.addSql(
      'alter table "post_note" add constraint "post_note_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "post_note" add constraint "post_note_post_id_foreign" foreign key ("post_id") references "post" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "audit_entry" add constraint "audit_entry_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "team_member" add constraint "team_member_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade',
    );
  }
}
