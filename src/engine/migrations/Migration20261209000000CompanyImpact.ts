import { forBothDialects } from './both.js';

// Impact counts each paying account once (docs/console.md#impact). A voter's payers are their companies, or themselves
// when they belong to none; `post_payer` holds, for each post, each payer its voters bring and how many of them bring
// it, with the payer's revenue as last written. `post_impact` adds up the paying payers per currency (`mrr_cents`,
// `paying_companies`, `paying_people`), and still counts the post's voters who pay themselves (`paying_voters`: the
// console's voters list, by their own revenue). Triggers keep both in the transaction of every write that moves them:
// a vote cast, moved or unlinked; a membership made or ended (also by a deletion's cascade); a company's or a
// contact's revenue changed. A payer's row carries its revenue, so removing it needs no other row to still exist.

/** The distinct (post, contact) pairs of the votes that name a contact. */
const VOTERS = '(select distinct `post_id`, `contact_id` from `vote` where `contact_id` is not null)';

/** Every payer of every post, from the votes and memberships there are (the migration's build, and the tests' recount). */
const PAYERS_FROM_SCRATCH = (q: (s: string) => string) =>
  q(`insert into \`post_payer\` (\`post_id\`, \`payer_id\`, \`organization_id\`, \`is_company\`, \`mrr_cents\`, \`currency\`, \`voters\`)
  select vc.\`post_id\`, co.\`id\`, co.\`organization_id\`, 1, co.\`mrr_cents\`, co.\`currency\`, count(*) from ${VOTERS} vc
    join \`company_member\` m on m.\`contact_id\` = vc.\`contact_id\` join \`company\` co on co.\`id\` = m.\`company_id\`
    group by vc.\`post_id\`, co.\`id\`, co.\`organization_id\`, co.\`mrr_cents\`, co.\`currency\`
  union all
  select vc.\`post_id\`, ct.\`id\`, ct.\`organization_id\`, 0, ct.\`mrr_cents\`, ct.\`currency\`, 1 from ${VOTERS} vc
    join \`contact\` ct on ct.\`id\` = vc.\`contact_id\`
    where not exists (select 1 from \`company_member\` m where m.\`contact_id\` = ct.\`id\`)`);

/** Every post's impact from `post_payer` and the voters' own revenue. */
const IMPACT_FROM_SCRATCH = (q: (s: string) => string) =>
  q(`insert into \`post_impact\` (\`post_id\`, \`currency\`, \`organization_id\`, \`mrr_cents\`, \`paying_voters\`, \`paying_companies\`, \`paying_people\`)
  select x.\`post_id\`, x.\`currency\`, x.\`organization_id\`, sum(x.\`mrr\`), sum(x.\`pv\`), sum(x.\`pc\`), sum(x.\`pp\`) from (
    select \`post_id\`, \`currency\`, \`organization_id\`, \`mrr_cents\` as \`mrr\`, 0 as \`pv\`, \`is_company\` as \`pc\`, 1 - \`is_company\` as \`pp\`
      from \`post_payer\` where \`mrr_cents\` > 0 and \`currency\` is not null
    union all
    select vc.\`post_id\`, c.\`currency\`, c.\`organization_id\`, 0, 1, 0, 0 from ${VOTERS} vc join \`contact\` c on c.\`id\` = vc.\`contact_id\`
      where c.\`mrr_cents\` > 0 and c.\`currency\` is not null
  ) x group by x.\`post_id\`, x.\`currency\`, x.\`organization_id\``);

const asIs = (s: string) => s;
const doubleQuoted = (s: string) => s.replaceAll('`', '"');

/** The recount from scratch, for each database: what the tests compare the kept figures to. */
export const IMPACT_RECOUNT = {
  sqlite: { payers: PAYERS_FROM_SCRATCH(asIs), impact: IMPACT_FROM_SCRATCH(asIs) },
  postgresql: { payers: PAYERS_FROM_SCRATCH(doubleQuoted), impact: IMPACT_FROM_SCRATCH(doubleQuoted) },
};

// SQLite's trigger bodies, as statements of a contact's vote on a post (`post`, `contact`: the row's columns).
const FIRST_VOTE = (post: string, contact: string) =>
  `(select count(*) from \`vote\` o where o.\`contact_id\` = ${contact} and o.\`post_id\` = ${post}) = 1`;
const NO_VOTE_LEFT = (post: string, contact: string) =>
  `not exists (select 1 from \`vote\` o where o.\`contact_id\` = ${contact} and o.\`post_id\` = ${post})`;
const PRUNE = (post: string) =>
  `delete from \`post_impact\` where \`post_id\` = ${post} and \`paying_voters\` <= 0 and \`paying_companies\` <= 0 and \`paying_people\` <= 0;`;
/** The payers a contact brings now: their companies, or themselves when they belong to none. */
const PAYER_IDS = (contact: string) =>
  `(select \`company_id\` from \`company_member\` where \`contact_id\` = ${contact}
    union all select ${contact} where not exists (select 1 from \`company_member\` where \`contact_id\` = ${contact}))`;

const SQLITE_VOTE_ADD = (post: string, contact: string) => `
  insert into \`post_impact\` (\`post_id\`, \`currency\`, \`organization_id\`, \`mrr_cents\`, \`paying_voters\`)
    select ${post}, c.\`currency\`, c.\`organization_id\`, 0, 1 from \`contact\` c
    where c.\`id\` = ${contact} and c.\`mrr_cents\` > 0 and c.\`currency\` is not null and ${FIRST_VOTE(post, contact)}
    on conflict (\`post_id\`, \`currency\`) do update set \`paying_voters\` = \`paying_voters\` + 1;
  insert into \`post_payer\` (\`post_id\`, \`payer_id\`, \`organization_id\`, \`is_company\`, \`mrr_cents\`, \`currency\`, \`voters\`)
    select * from (
      select ${post}, co.\`id\`, co.\`organization_id\`, 1, co.\`mrr_cents\`, co.\`currency\`, 1 from \`company_member\` m
        join \`company\` co on co.\`id\` = m.\`company_id\` where m.\`contact_id\` = ${contact}
      union all
      select ${post}, ct.\`id\`, ct.\`organization_id\`, 0, ct.\`mrr_cents\`, ct.\`currency\`, 1 from \`contact\` ct
        where ct.\`id\` = ${contact} and not exists (select 1 from \`company_member\` m where m.\`contact_id\` = ${contact})
    ) where ${FIRST_VOTE(post, contact)}
    on conflict (\`post_id\`, \`payer_id\`) do update set \`voters\` = \`voters\` + 1;`;

const SQLITE_VOTE_REMOVE = (post: string, contact: string) => `
  update \`post_impact\` set \`paying_voters\` = \`paying_voters\` - 1
    where \`post_id\` = ${post} and \`currency\` = (select c.\`currency\` from \`contact\` c where c.\`id\` = ${contact} and c.\`mrr_cents\` > 0)
      and ${NO_VOTE_LEFT(post, contact)};
  ${PRUNE(post)}
  update \`post_payer\` set \`voters\` = \`voters\` - 1
    where \`post_id\` = ${post} and \`payer_id\` in ${PAYER_IDS(contact)} and ${NO_VOTE_LEFT(post, contact)};
  delete from \`post_payer\` where \`post_id\` = ${post} and \`voters\` <= 0;`;

const SQLITE_PAYER_IN = (row: 'new') => `
  insert into \`post_impact\` (\`post_id\`, \`currency\`, \`organization_id\`, \`mrr_cents\`, \`paying_voters\`, \`paying_companies\`, \`paying_people\`)
    select ${row}.\`post_id\`, ${row}.\`currency\`, ${row}.\`organization_id\`, ${row}.\`mrr_cents\`, 0, ${row}.\`is_company\`, 1 - ${row}.\`is_company\`
    where ${row}.\`mrr_cents\` > 0 and ${row}.\`currency\` is not null
    on conflict (\`post_id\`, \`currency\`) do update set \`mrr_cents\` = \`mrr_cents\` + excluded.\`mrr_cents\`,
      \`paying_companies\` = \`paying_companies\` + excluded.\`paying_companies\`, \`paying_people\` = \`paying_people\` + excluded.\`paying_people\`;`;
const SQLITE_PAYER_OUT = (row: 'old') => `
  update \`post_impact\` set \`mrr_cents\` = \`mrr_cents\` - ${row}.\`mrr_cents\`, \`paying_companies\` = \`paying_companies\` - ${row}.\`is_company\`,
      \`paying_people\` = \`paying_people\` - (1 - ${row}.\`is_company\`)
    where \`post_id\` = ${row}.\`post_id\` and \`currency\` = ${row}.\`currency\` and ${row}.\`mrr_cents\` > 0;
  ${PRUNE(`${row}.\`post_id\``)}`;

const INSERT_PAYER = `insert into \`post_payer\` (\`post_id\`, \`payer_id\`, \`organization_id\`, \`is_company\`, \`mrr_cents\`, \`currency\`, \`voters\`)`;

const SQLITE = [
  'drop trigger `vote_impact_insert`',
  'drop trigger `vote_impact_delete`',
  'drop trigger `vote_impact_update`',
  'drop trigger `contact_impact_update`',
  'alter table `post_impact` add column `paying_companies` integer not null default 0',
  'alter table `post_impact` add column `paying_people` integer not null default 0',
  'create table `post_payer` (`post_id` text not null, `payer_id` text not null, `organization_id` text not null, `is_company` integer not null, `mrr_cents` integer null, `currency` text null, `voters` integer not null, constraint `post_payer_post_id_foreign` foreign key(`post_id`) references `post`(`id`) on delete cascade on update cascade, constraint `post_payer_organization_id_foreign` foreign key(`organization_id`) references `organization`(`id`) on delete cascade on update cascade, primary key (`post_id`, `payer_id`))',
  'create index `post_payer_payer_idx` on `post_payer` (`payer_id`)',
  IMPACT_RECOUNT.sqlite.payers,
  'delete from `post_impact`',
  IMPACT_RECOUNT.sqlite.impact,
  `create trigger \`vote_impact_insert\` after insert on \`vote\` when new.\`contact_id\` is not null begin ${SQLITE_VOTE_ADD('new.`post_id`', 'new.`contact_id`')} end`,
  `create trigger \`vote_impact_delete\` after delete on \`vote\` when old.\`contact_id\` is not null begin ${SQLITE_VOTE_REMOVE('old.`post_id`', 'old.`contact_id`')} end`,
  `create trigger \`vote_impact_update\` after update of \`post_id\`, \`contact_id\` on \`vote\`
     when old.\`post_id\` is not new.\`post_id\` or old.\`contact_id\` is not new.\`contact_id\` begin
     ${SQLITE_VOTE_REMOVE('old.`post_id`', 'old.`contact_id`')}
     ${SQLITE_VOTE_ADD('new.`post_id`', 'new.`contact_id`')}
     end`,
  `create trigger \`post_payer_insert\` after insert on \`post_payer\` begin ${SQLITE_PAYER_IN('new')} end`,
  `create trigger \`post_payer_delete\` after delete on \`post_payer\` begin ${SQLITE_PAYER_OUT('old')} end`,
  `create trigger \`post_payer_update\` after update of \`mrr_cents\`, \`currency\` on \`post_payer\`
     when old.\`mrr_cents\` is not new.\`mrr_cents\` or old.\`currency\` is not new.\`currency\` begin
     ${SQLITE_PAYER_OUT('old')} ${SQLITE_PAYER_IN('new')} end`,
  `create trigger \`company_member_impact_insert\` after insert on \`company_member\` begin
     ${INSERT_PAYER} select * from (
       select distinct v.\`post_id\`, co.\`id\`, co.\`organization_id\`, 1, co.\`mrr_cents\`, co.\`currency\`, 1 from \`vote\` v
         join \`company\` co on co.\`id\` = new.\`company_id\` where v.\`contact_id\` = new.\`contact_id\`
     ) where true on conflict (\`post_id\`, \`payer_id\`) do update set \`voters\` = \`voters\` + 1;
     update \`post_payer\` set \`voters\` = \`voters\` - 1 where \`payer_id\` = new.\`contact_id\`
       and (select count(*) from \`company_member\` where \`contact_id\` = new.\`contact_id\`) = 1;
     delete from \`post_payer\` where \`payer_id\` = new.\`contact_id\` and \`voters\` <= 0;
     end`,
  `create trigger \`company_member_impact_delete\` after delete on \`company_member\` begin
     update \`post_payer\` set \`voters\` = \`voters\` - 1 where \`payer_id\` = old.\`company_id\`
       and \`post_id\` in (select \`post_id\` from \`vote\` where \`contact_id\` = old.\`contact_id\`);
     delete from \`post_payer\` where \`payer_id\` = old.\`company_id\` and \`voters\` <= 0;
     ${INSERT_PAYER} select * from (
       select distinct v.\`post_id\`, ct.\`id\`, ct.\`organization_id\`, 0, ct.\`mrr_cents\`, ct.\`currency\`, 1 from \`vote\` v
         join \`contact\` ct on ct.\`id\` = old.\`contact_id\` where v.\`contact_id\` = old.\`contact_id\`
           and not exists (select 1 from \`company_member\` m where m.\`contact_id\` = old.\`contact_id\`)
     ) where true on conflict (\`post_id\`, \`payer_id\`) do update set \`voters\` = \`voters\` + 1;
     end`,
  `create trigger \`company_impact_update\` after update of \`mrr_cents\`, \`currency\` on \`company\`
     when old.\`mrr_cents\` is not new.\`mrr_cents\` or old.\`currency\` is not new.\`currency\` begin
     update \`post_payer\` set \`mrr_cents\` = new.\`mrr_cents\`, \`currency\` = new.\`currency\` where \`payer_id\` = new.\`id\`;
     end`,
  `create trigger \`contact_impact_update\` after update of \`mrr_cents\`, \`currency\` on \`contact\`
     when old.\`mrr_cents\` is not new.\`mrr_cents\` or old.\`currency\` is not new.\`currency\` begin
     update \`post_impact\` set \`paying_voters\` = \`paying_voters\` - 1
       where old.\`mrr_cents\` > 0 and \`currency\` = old.\`currency\` and \`post_id\` in (select \`post_id\` from \`vote\` where \`contact_id\` = old.\`id\`);
     delete from \`post_impact\` where \`paying_voters\` <= 0 and \`paying_companies\` <= 0 and \`paying_people\` <= 0
       and \`post_id\` in (select \`post_id\` from \`vote\` where \`contact_id\` = old.\`id\`);
     insert into \`post_impact\` (\`post_id\`, \`currency\`, \`organization_id\`, \`mrr_cents\`, \`paying_voters\`)
       select * from (select distinct v.\`post_id\`, new.\`currency\`, new.\`organization_id\`, 0, 1 from \`vote\` v
         where v.\`contact_id\` = new.\`id\` and new.\`mrr_cents\` > 0 and new.\`currency\` is not null) where true
       on conflict (\`post_id\`, \`currency\`) do update set \`paying_voters\` = \`paying_voters\` + 1;
     update \`post_payer\` set \`mrr_cents\` = new.\`mrr_cents\`, \`currency\` = new.\`currency\` where \`payer_id\` = new.\`id\`;
     end`,
];

const POSTGRESQL = [
  'drop trigger "vote_impact_insert" on "vote"',
  'drop trigger "vote_impact_delete" on "vote"',
  'drop trigger "vote_impact_update" on "vote"',
  'drop trigger "contact_impact_update" on "contact"',
  'drop function "post_impact_vote"()',
  'drop function "post_impact_contact"()',
  'alter table "post_impact" add column "paying_companies" int not null default 0',
  'alter table "post_impact" add column "paying_people" int not null default 0',
  'create table "post_payer" ("post_id" varchar(40) not null, "payer_id" varchar(40) not null, "organization_id" varchar(40) not null, "is_company" int not null, "mrr_cents" int null, "currency" varchar(3) null, "voters" int not null, constraint "post_payer_pkey" primary key ("post_id", "payer_id"))',
  'create index "post_payer_payer_idx" on "post_payer" ("payer_id")',
  'alter table "post_payer" add constraint "post_payer_post_id_foreign" foreign key ("post_id") references "post" ("id") on update cascade on delete cascade',
  'alter table "post_payer" add constraint "post_payer_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade',
  IMPACT_RECOUNT.postgresql.payers,
  'delete from "post_impact"',
  IMPACT_RECOUNT.postgresql.impact,
  `create function "post_impact_vote"() returns trigger language plpgsql as $$
begin
  if tg_op in ('DELETE', 'UPDATE') and old.contact_id is not null
     and not exists (select 1 from vote o where o.contact_id = old.contact_id and o.post_id = old.post_id) then
    update post_impact i set paying_voters = i.paying_voters - 1 from contact c
      where c.id = old.contact_id and c.mrr_cents > 0 and i.post_id = old.post_id and i.currency = c.currency;
    delete from post_impact where post_id = old.post_id and paying_voters <= 0 and paying_companies <= 0 and paying_people <= 0;
    update post_payer set voters = voters - 1 where post_id = old.post_id and payer_id in (
      select company_id from company_member where contact_id = old.contact_id
      union all select old.contact_id where not exists (select 1 from company_member where contact_id = old.contact_id));
    delete from post_payer where post_id = old.post_id and voters <= 0;
  end if;
  if tg_op in ('INSERT', 'UPDATE') and new.contact_id is not null
     and (select count(*) from vote o where o.contact_id = new.contact_id and o.post_id = new.post_id) = 1 then
    insert into post_impact (post_id, currency, organization_id, mrr_cents, paying_voters)
      select new.post_id, c.currency, c.organization_id, 0, 1 from contact c
      where c.id = new.contact_id and c.mrr_cents > 0 and c.currency is not null
      on conflict (post_id, currency) do update set paying_voters = post_impact.paying_voters + 1;
    insert into post_payer (post_id, payer_id, organization_id, is_company, mrr_cents, currency, voters)
      select new.post_id, co.id, co.organization_id, 1, co.mrr_cents, co.currency, 1 from company_member m
        join company co on co.id = m.company_id where m.contact_id = new.contact_id
      union all
      select new.post_id, ct.id, ct.organization_id, 0, ct.mrr_cents, ct.currency, 1 from contact ct
        where ct.id = new.contact_id and not exists (select 1 from company_member m where m.contact_id = new.contact_id)
      on conflict (post_id, payer_id) do update set voters = post_payer.voters + 1;
  end if;
  return null;
end $$`,
  'create trigger "vote_impact_insert" after insert on "vote" for each row when (new.contact_id is not null) execute function "post_impact_vote"()',
  'create trigger "vote_impact_delete" after delete on "vote" for each row when (old.contact_id is not null) execute function "post_impact_vote"()',
  'create trigger "vote_impact_update" after update of "post_id", "contact_id" on "vote" for each row when (old.post_id is distinct from new.post_id or old.contact_id is distinct from new.contact_id) execute function "post_impact_vote"()',
  `create function "post_impact_payer"() returns trigger language plpgsql as $$
begin
  if tg_op in ('DELETE', 'UPDATE') and old.mrr_cents > 0 and old.currency is not null then
    update post_impact set mrr_cents = mrr_cents - old.mrr_cents, paying_companies = paying_companies - old.is_company,
        paying_people = paying_people - (1 - old.is_company)
      where post_id = old.post_id and currency = old.currency;
    delete from post_impact where post_id = old.post_id and paying_voters <= 0 and paying_companies <= 0 and paying_people <= 0;
  end if;
  if tg_op in ('INSERT', 'UPDATE') and new.mrr_cents > 0 and new.currency is not null then
    insert into post_impact (post_id, currency, organization_id, mrr_cents, paying_voters, paying_companies, paying_people)
      values (new.post_id, new.currency, new.organization_id, new.mrr_cents, 0, new.is_company, 1 - new.is_company)
      on conflict (post_id, currency) do update set mrr_cents = post_impact.mrr_cents + excluded.mrr_cents,
        paying_companies = post_impact.paying_companies + excluded.paying_companies,
        paying_people = post_impact.paying_people + excluded.paying_people;
  end if;
  return null;
end $$`,
  'create trigger "post_payer_insert" after insert on "post_payer" for each row execute function "post_impact_payer"()',
  'create trigger "post_payer_delete" after delete on "post_payer" for each row execute function "post_impact_payer"()',
  'create trigger "post_payer_update" after update of "mrr_cents", "currency" on "post_payer" for each row when (old.mrr_cents is distinct from new.mrr_cents or old.currency is distinct from new.currency) execute function "post_impact_payer"()',
  `create function "post_payer_member"() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    insert into post_payer (post_id, payer_id, organization_id, is_company, mrr_cents, currency, voters)
      select distinct v.post_id, co.id, co.organization_id, 1, co.mrr_cents, co.currency, 1 from vote v
        join company co on co.id = new.company_id where v.contact_id = new.contact_id
      on conflict (post_id, payer_id) do update set voters = post_payer.voters + 1;
    if (select count(*) from company_member where contact_id = new.contact_id) = 1 then
      update post_payer set voters = voters - 1 where payer_id = new.contact_id;
      delete from post_payer where payer_id = new.contact_id and voters <= 0;
    end if;
  else
    update post_payer set voters = voters - 1 where payer_id = old.company_id
      and post_id in (select post_id from vote where contact_id = old.contact_id);
    delete from post_payer where payer_id = old.company_id and voters <= 0;
    insert into post_payer (post_id, payer_id, organization_id, is_company, mrr_cents, currency, voters)
      select distinct v.post_id, ct.id, ct.organization_id, 0, ct.mrr_cents, ct.currency, 1 from vote v
        join contact ct on ct.id = old.contact_id where v.contact_id = old.contact_id
          and not exists (select 1 from company_member m where m.contact_id = old.contact_id)
      on conflict (post_id, payer_id) do update set voters = post_payer.voters + 1;
  end if;
  return null;
end $$`,
  'create trigger "company_member_impact_insert" after insert on "company_member" for each row execute function "post_payer_member"()',
  'create trigger "company_member_impact_delete" after delete on "company_member" for each row execute function "post_payer_member"()',
  `create function "post_payer_revenue"() returns trigger language plpgsql as $$
begin
  update post_payer set mrr_cents = new.mrr_cents, currency = new.currency where payer_id = new.id;
  return null;
end $$`,
  'create trigger "company_impact_update" after update of "mrr_cents", "currency" on "company" for each row when (old.mrr_cents is distinct from new.mrr_cents or old.currency is distinct from new.currency) execute function "post_payer_revenue"()',
  `create function "post_impact_contact"() returns trigger language plpgsql as $$
begin
  if old.mrr_cents > 0 and old.currency is not null then
    update post_impact set paying_voters = paying_voters - 1
      where currency = old.currency and post_id in (select post_id from vote where contact_id = old.id);
    delete from post_impact where paying_voters <= 0 and paying_companies <= 0 and paying_people <= 0
      and post_id in (select post_id from vote where contact_id = old.id);
  end if;
  if new.mrr_cents > 0 and new.currency is not null then
    insert into post_impact (post_id, currency, organization_id, mrr_cents, paying_voters)
      select distinct v.post_id, new.currency, new.organization_id, 0, 1 from vote v where v.contact_id = new.id
      on conflict (post_id, currency) do update set paying_voters = post_impact.paying_voters + 1;
  end if;
  update post_payer set mrr_cents = new.mrr_cents, currency = new.currency where payer_id = new.id;
  return null;
end $$`,
  'create trigger "contact_impact_update" after update of "mrr_cents", "currency" on "contact" for each row when (old.mrr_cents is distinct from new.mrr_cents or old.currency is distinct from new.currency) execute function "post_impact_contact"()',
];

/** Impact per paying account: a company counts once however many of its people voted (issue 49). */
export const CompanyImpact = forBothDialects({ sqlite: SQLITE, postgresql: POSTGRESQL });
