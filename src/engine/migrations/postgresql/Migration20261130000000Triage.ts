import { PostgresqlMigration } from './migration.js';

/**
 * The console's posts page (docs/console.md): indexes of a workspace's posts by votes and by creation, every board at
 * once, and of its votes by time (the trending sort); where moved posts were (their old portal addresses send on). And its impact sort: `post_impact`, each post's monthly revenue per currency from its
 * distinct paying voters, kept by triggers in the transaction of every write that moves it, and built here from the
 * votes there are. Also an index of votes by contact, which a change of a contact's revenue reads.
 */
export class Migration20261130000000Triage extends PostgresqlMigration {
  override async up(): Promise<void> {
    this.addSql('create index "post_org_votes_idx" on "post" ("organization_id", "vote_count", "created_at", "id")');
    this.addSql('create index "post_org_created_idx" on "post" ("organization_id", "created_at", "id")');
    this.addSql(
      'create table "post_redirect" ("board_id" varchar(40) not null, "slug" varchar(80) not null, "post_id" varchar(40) not null, constraint "post_redirect_pkey" primary key ("board_id", "slug"))',
    );
    this.addSql('create index "post_redirect_post_idx" on "post_redirect" ("post_id")');
    this.addSql(
      'alter table "post_redirect" add constraint "post_redirect_board_id_foreign" foreign key ("board_id") references "board" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "post_redirect" add constraint "post_redirect_post_id_foreign" foreign key ("post_id") references "post" ("id") on update cascade on delete cascade',
    );
    this.addSql('create index "vote_org_created_idx" on "vote" ("organization_id", "created_at")');
    this.addSql('create index "vote_contact_post_idx" on "vote" ("contact_id", "post_id")');
    this.addSql(
      'create table "post_impact" ("post_id" varchar(40) not null, "currency" varchar(3) not null, "organization_id" varchar(40) not null, "mrr_cents" bigint not null, "paying_voters" int not null, constraint "post_impact_pkey" primary key ("post_id", "currency"))',
    );
    this.addSql(
      'create index "post_impact_org_currency_idx" on "post_impact" ("organization_id", "currency", "mrr_cents", "post_id")',
    );
    this.addSql(
      'alter table "post_impact" add constraint "post_impact_post_id_foreign" foreign key ("post_id") references "post" ("id") on update cascade on delete cascade',
    );
    this.addSql(
      'alter table "post_impact" add constraint "post_impact_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade',
    );
    // A vote counts for its contact's first vote on the post, and stops counting with their last one there.
    this.addSql(`create function "post_impact_vote"() returns trigger language plpgsql as $$
begin
  if tg_op in ('DELETE', 'UPDATE') and old.contact_id is not null then
    update post_impact i set mrr_cents = i.mrr_cents - c.mrr_cents, paying_voters = i.paying_voters - 1
      from contact c
      where c.id = old.contact_id and c.mrr_cents > 0 and i.post_id = old.post_id and i.currency = c.currency
        and not exists (select 1 from vote o where o.contact_id = old.contact_id and o.post_id = old.post_id);
    delete from post_impact where post_id = old.post_id and paying_voters <= 0;
  end if;
  if tg_op in ('INSERT', 'UPDATE') and new.contact_id is not null then
    insert into post_impact (post_id, currency, organization_id, mrr_cents, paying_voters)
      select new.post_id, c.currency, c.organization_id, c.mrr_cents, 1 from contact c
      where c.id = new.contact_id and c.mrr_cents > 0 and c.currency is not null
        and (select count(*) from vote o where o.contact_id = new.contact_id and o.post_id = new.post_id) = 1
      on conflict (post_id, currency) do update set mrr_cents = post_impact.mrr_cents + excluded.mrr_cents, paying_voters = post_impact.paying_voters + 1;
  end if;
  return null;
end $$`);
    this.addSql(
      'create trigger "vote_impact_insert" after insert on "vote" for each row when (new.contact_id is not null) execute function "post_impact_vote"()',
    );
    this.addSql(
      'create trigger "vote_impact_delete" after delete on "vote" for each row when (old.contact_id is not null) execute function "post_impact_vote"()',
    );
    this.addSql(
      'create trigger "vote_impact_update" after update of "post_id", "contact_id" on "vote" for each row when (old.post_id is distinct from new.post_id or old.contact_id is distinct from new.contact_id) execute function "post_impact_vote"()',
    );
    // A contact's revenue or currency changed: each post they voted on moves from the old amount to the new.
    this.addSql(`create function "post_impact_contact"() returns trigger language plpgsql as $$
begin
  if old.mrr_cents > 0 and old.currency is not null then
    update post_impact set mrr_cents = mrr_cents - old.mrr_cents, paying_voters = paying_voters - 1
      where currency = old.currency and post_id in (select post_id from vote where contact_id = old.id);
    delete from post_impact where paying_voters <= 0 and currency = old.currency and post_id in (select post_id from vote where contact_id = old.id);
  end if;
  if new.mrr_cents > 0 and new.currency is not null then
    insert into post_impact (post_id, currency, organization_id, mrr_cents, paying_voters)
      select distinct v.post_id, new.currency, new.organization_id, new.mrr_cents, 1 from vote v where v.contact_id = new.id
      on conflict (post_id, currency) do update set mrr_cents = post_impact.mrr_cents + excluded.mrr_cents, paying_voters = post_impact.paying_voters + 1;
  end if;
  return null;
end $$`);
    this.addSql(
      'create trigger "contact_impact_update" after update of "mrr_cents", "currency" on "contact" for each row when (old.mrr_cents is distinct from new.mrr_cents or old.currency is distinct from new.currency) execute function "post_impact_contact"()',
    );
    this.addSql(`insert into "post_impact" ("post_id", "currency", "organization_id", "mrr_cents", "paying_voters")
      select d.post_id, d.currency, d.organization_id, sum(d.mrr_cents), count(*) from (
        select distinct v.post_id, c.id, c.currency, c.organization_id, c.mrr_cents from vote v join contact c on c.id = v.contact_id
        where c.mrr_cents > 0 and c.currency is not null) d
      group by d.post_id, d.currency, d.organization_id`);
  }
}
