import { forBothDialects } from './both.js';

/** Companies (paying accounts) and which contacts belong to them. */
export const Companies = forBothDialects({
  sqlite: [
    'create table `company` (`id` text not null, `organization_id` text not null, `external_company_id` text not null, `name` text null, `domain` text null, `plan` text null, `mrr_cents` integer null, `currency` text null, `metadata` json not null, `created_at` datetime not null, `updated_at` datetime not null, constraint `company_organization_id_foreign` foreign key(`organization_id`) references `organization`(`id`) on delete cascade on update cascade, primary key (`id`))',
    'create index `company_org_created_idx` on `company` (`organization_id`, `created_at`, `id`)',
    'create index `company_org_mrr_idx` on `company` (`organization_id`, `mrr_cents`, `id`)',
    'create unique index `company_org_external_company_id_unique` on `company` (`organization_id`, `external_company_id`)',
    'create table `company_member` (`contact_id` text not null, `company_id` text not null, constraint `company_member_contact_id_foreign` foreign key(`contact_id`) references `contact`(`id`) on delete cascade on update cascade, constraint `company_member_company_id_foreign` foreign key(`company_id`) references `company`(`id`) on delete cascade on update cascade, primary key (`contact_id`, `company_id`))',
    'create index `company_member_company_idx` on `company_member` (`company_id`, `contact_id`)',
  ],
  postgresql: [
    'create table "company" ("id" varchar(40) not null, "organization_id" varchar(40) not null, "external_company_id" varchar(255) not null, "name" varchar(200) null, "domain" varchar(253) null, "plan" varchar(100) null, "mrr_cents" int null, "currency" varchar(3) null, "metadata" jsonb not null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "company_pkey" primary key ("id"))',
    'create index "company_org_created_idx" on "company" ("organization_id", "created_at", "id")',
    'create index "company_org_mrr_idx" on "company" ("organization_id", "mrr_cents", "id")',
    'alter table "company" add constraint "company_org_external_company_id_unique" unique ("organization_id", "external_company_id")',
    'create table "company_member" ("contact_id" varchar(40) not null, "company_id" varchar(40) not null, constraint "company_member_pkey" primary key ("contact_id", "company_id"))',
    'create index "company_member_company_idx" on "company_member" ("company_id", "contact_id")',
    'alter table "company" add constraint "company_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade',
    'alter table "company_member" add constraint "company_member_contact_id_foreign" foreign key ("contact_id") references "contact" ("id") on update cascade on delete cascade',
    'alter table "company_member" add constraint "company_member_company_id_foreign" foreign key ("company_id") references "company" ("id") on update cascade on delete cascade',
  ],
});
