import { PostgresqlMigration } from './migration.js';

/**
 * Consent in practice (docs/privacy.md): the mail outbox, the topics contacts subscribe to, their unsubscribes and
 * digest preference, the suppression list erasures leave, the workspace's switch for mailing admin-created contacts
 * and its suppression salt, and when an event's payload was redacted.
 */
export class Migration20261126000000Notifications extends PostgresqlMigration {
  override async up(): Promise<void> {
    this.addSql(
      'alter table "organization" add column "notify_admin_created" boolean not null default false, add column "privacy_salt" varchar(64) null',
    );
    this.addSql('alter table "event" add column "redacted_at" timestamptz(3) null');
    // fillfactor 70, as for deliveries: claims and lease renewals change no indexed column (HOT updates).
    this.addSql(
      'create table "mail" ("id" varchar(40) not null, "organization_id" varchar(40) not null, "change_id" varchar(40) not null, "kind" varchar(20) not null, "contact_id" varchar(40) null, "email" varchar(320) not null, "email_hash" varchar(64) not null, "payload" text not null, "status" varchar(20) not null, "attempt_count" int not null default 0, "next_attempt_at" timestamptz(3) null, "lease_token" varchar(40) null, "lease_expires_at" timestamptz(3) null, "message_id" varchar(200) null, "sent_at" timestamptz(3) null, "failed_at" timestamptz(3) null, "error" varchar(500) null, "created_at" timestamptz(3) not null, constraint "mail_pkey" primary key ("id")) with (fillfactor = 70)',
    );
    this.addSql(
      'alter table "mail" add constraint "mail_change_recipient_unique" unique ("organization_id", "change_id", "email_hash")',
    );
    this.addSql('create index "mail_recipient_idx" on "mail" ("organization_id", "email_hash", "created_at")');
    this.addSql('create index "mail_contact_idx" on "mail" ("contact_id")');
    // What the mail lane claims: pending rows by due time.
    this.addSql('create index "mail_due_idx" on "mail" ("next_attempt_at", "id") where "status" = \'pending\'');
    // What the retention sweep deletes: settled rows by age.
    this.addSql('create index "mail_settled_idx" on "mail" ("created_at") where "status" <> \'pending\'');
    this.addSql(
      'alter table "mail" add constraint "mail_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'create table "mail_subscription" ("contact_id" varchar(40) not null, "topic" varchar(60) not null, "organization_id" varchar(40) not null, "via" varchar(20) not null, "created_at" timestamptz(3) not null, constraint "mail_subscription_pkey" primary key ("contact_id", "topic"))',
    );
    this.addSql('create index "mail_subscription_topic_idx" on "mail_subscription" ("organization_id", "topic")');
    this.addSql(
      'alter table "mail_subscription" add constraint "mail_subscription_contact_id_foreign" foreign key ("contact_id") references "contact" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "mail_subscription" add constraint "mail_subscription_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'create table "mail_unsubscribe" ("id" varchar(40) not null, "organization_id" varchar(40) not null, "email_hash" varchar(64) not null, "contact_id" varchar(40) null, "topic" varchar(60) not null, "via" varchar(20) not null, "created_at" timestamptz(3) not null, "undone_at" timestamptz(3) null, constraint "mail_unsubscribe_pkey" primary key ("id"))',
    );
    this.addSql(
      'create index "mail_unsubscribe_recipient_idx" on "mail_unsubscribe" ("organization_id", "email_hash")',
    );
    this.addSql(
      'alter table "mail_unsubscribe" add constraint "mail_unsubscribe_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'create table "mail_preference" ("organization_id" varchar(40) not null, "email_hash" varchar(64) not null, "digest" varchar(20) not null, "updated_at" timestamptz(3) not null, constraint "mail_preference_pkey" primary key ("organization_id", "email_hash"))',
    );
    this.addSql(
      'alter table "mail_preference" add constraint "mail_preference_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'create table "suppression" ("organization_id" varchar(40) not null, "contact_id" varchar(40) not null, "digest" varchar(64) not null, "pending_event_id" varchar(40) null, "created_at" timestamptz(3) not null, constraint "suppression_pkey" primary key ("organization_id", "contact_id"))',
    );
    this.addSql('create index "suppression_digest_idx" on "suppression" ("organization_id", "digest")');
    this.addSql(
      'create index "suppression_pending_event_idx" on "suppression" ("pending_event_id") where "pending_event_id" is not null',
    );
    this.addSql(
      'alter table "suppression" add constraint "suppression_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade',
    );
  }
}
