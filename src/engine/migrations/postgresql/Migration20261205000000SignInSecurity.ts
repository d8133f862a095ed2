import { PostgresqlMigration } from './migration.js';

/**
 * Signing in, made safe (docs/security.md): a session records what proved it (a mailed code or link proves the
 * address; single sign-on proves it for the one workspace whose provider vouched), a workspace's single sign-on domains
 * each verified before the shared sign-in page sends anyone to it, wrong codes counted per address across codes, and
 * the mail outbox able to carry the console's own mail (a sign-in code belongs to no workspace).
 *
 * Sessions that single sign-on made before this cannot say which workspace vouched for them: they end. Sessions of a
 * mailed code or link keep their address proven. Existing single sign-on domains start unverified.
 */
export class Migration20261205000000SignInSecurity extends PostgresqlMigration {
  override async up(): Promise<void> {
    this.addSql(
      'create table "code_failure" ("id" varchar(40) not null, "scope" varchar(40) not null, "email_hash" varchar(64) not null, "created_at" timestamptz(3) not null, constraint "code_failure_pkey" primary key ("id"))',
    );
    this.addSql('create index "code_failure_scope_email_idx" on "code_failure" ("scope", "email_hash", "created_at")');
    this.addSql('create index "code_failure_created_idx" on "code_failure" ("created_at")');

    this.addSql('alter table "mail" alter column "organization_id" drop not null');
    this.addSql(
      'create index "mail_console_due_idx" on "mail" ("next_attempt_at", "id") where "status" = \'pending\' and "organization_id" is null',
    );

    this.addSql('alter table "team_session" add column "address_proven_at" timestamptz(3) null');
    this.addSql('update "team_session" set "address_proven_at" = "created_at" where "method" in (\'code\', \'link\')');
    this.addSql('delete from "team_session" where "method" = \'sso\'');
    this.addSql(
      'create table "team_session_sso" ("session_id" varchar(64) not null, "organization_id" varchar(40) not null, "issuer" varchar(500) not null, "proven_at" timestamptz(3) not null, constraint "team_session_sso_pkey" primary key ("session_id", "organization_id"))',
    );
    this.addSql(
      'alter table "team_session_sso" add constraint "team_session_sso_session_id_foreign" foreign key ("session_id") references "team_session" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "team_session_sso" add constraint "team_session_sso_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade',
    );

    this.addSql(
      'create table "sso_domain" ("organization_id" varchar(40) not null, "domain" varchar(253) not null, "token" varchar(64) not null, "verified_at" timestamptz(3) null, "verified_by" varchar(10) null, "created_at" timestamptz(3) not null, constraint "sso_domain_pkey" primary key ("organization_id", "domain"))',
    );
    this.addSql(
      'alter table "sso_domain" add constraint "sso_domain_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'create unique index "sso_domain_verified_unique" on "sso_domain" ("domain") where "verified_at" is not null',
    );
    this.addSql(
      'insert into "sso_domain" ("organization_id", "domain", "token", "created_at") select distinct s."organization_id", d.value, md5(random()::text || clock_timestamp()::text || d.value), s."updated_at" from "workspace_sso" s, json_array_elements_text(s."allowed_domains"::json) d',
    );
    this.addSql('alter table "workspace_sso" add column "enforced" boolean not null default false');
    this.addSql('alter table "workspace_sso" drop column "allowed_domains"');
  }
}
