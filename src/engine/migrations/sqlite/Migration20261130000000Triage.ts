import { Migration } from '@mikro-orm/migrations';

/** Keeps a post's impact in a currency when a vote of a contact is counted: their first vote on the post. */
const ADD = (
  post: string,
  contact: string,
) => `insert into \`post_impact\` (\`post_id\`, \`currency\`, \`organization_id\`, \`mrr_cents\`, \`paying_voters\`)
  select ${post}, c.\`currency\`, c.\`organization_id\`, c.\`mrr_cents\`, 1 from \`contact\` c
  where c.\`id\` = ${contact} and c.\`mrr_cents\` > 0 and c.\`currency\` is not null
    and (select count(*) from \`vote\` o where o.\`contact_id\` = ${contact} and o.\`post_id\` = ${post}) = 1
  on conflict (\`post_id\`, \`currency\`) do update set \`mrr_cents\` = \`mrr_cents\` + excluded.\`mrr_cents\`, \`paying_voters\` = \`paying_voters\` + 1;`;

/** ... and when it is no longer counted: their last vote on the post gone, moved or unlinked. */
const REMOVE = (post: string, contact: string) => `update \`post_impact\` set
    \`mrr_cents\` = \`mrr_cents\` - (select c.\`mrr_cents\` from \`contact\` c where c.\`id\` = ${contact}),
    \`paying_voters\` = \`paying_voters\` - 1
  where \`post_id\` = ${post} and \`currency\` = (select c.\`currency\` from \`contact\` c where c.\`id\` = ${contact} and c.\`mrr_cents\` > 0)
    and not exists (select 1 from \`vote\` o where o.\`contact_id\` = ${contact} and o.\`post_id\` = ${post});
  delete from \`post_impact\` where \`post_id\` = ${post} and \`paying_voters\` <= 0;`;

/**
 * The console's posts page (docs/console.md): indexes of a workspace's posts by votes and by creation, every board at
 * once, and of its votes by time (the trending sort); where moved posts were (their old portal addresses send on). And its impact sort: `post_impact`, each post's monthly revenue per currency from its
 * distinct paying voters, kept by triggers in the transaction of every write that moves it, and built here from the
 * votes there are. Also an index of votes by contact, which a change of a contact's revenue reads.
 */
export class Migration20261130000000Triage extends Migration {
  override async up(): Promise<void> {
    this.addSql('create index `post_org_votes_idx` on `post` (`organization_id`, `vote_count`, `created_at`, `id`)');
    this.addSql('create index `post_org_created_idx` on `post` (`organization_id`, `created_at`, `id`)');
    // Led by the two above now.
    this.addSql('drop index `post_organization_id_index`');
    this.addSql(
      'create table `post_redirect` (`board_id` text not null, `slug` text not null, `post_id` text not null, constraint `post_redirect_board_id_foreign` foreign key(`board_id`) references `board`(`id`) on delete cascade on update cascade, constraint `post_redirect_post_id_foreign` foreign key(`post_id`) references `post`(`id`) on delete cascade on update cascade, primary key (`board_id`, `slug`))',
    );
    this.addSql('create index `post_redirect_post_idx` on `post_redirect` (`post_id`)');
    this.addSql('create index `vote_org_created_idx` on `vote` (`organization_id`, `created_at`)');
    this.addSql('create index `vote_contact_post_idx` on `vote` (`contact_id`, `post_id`)');
    this.addSql(
      'create table `post_impact` (`post_id` text not null, `currency` text not null, `organization_id` text not null, `mrr_cents` bigint not null, `paying_voters` integer not null, constraint `post_impact_post_id_foreign` foreign key(`post_id`) references `post`(`id`) on delete cascade on update cascade, constraint `post_impact_organization_id_foreign` foreign key(`organization_id`) references `organization`(`id`) on delete cascade on update cascade, primary key (`post_id`, `currency`))',
    );
    this.addSql(
      'create index `post_impact_org_currency_idx` on `post_impact` (`organization_id`, `currency`, `mrr_cents`, `post_id`)',
    );
    this.addSql(
      `create trigger \`vote_impact_insert\` after insert on \`vote\` when new.\`contact_id\` is not null begin ${ADD('new.`post_id`', 'new.`contact_id`')} end`,
    );
    this.addSql(
      `create trigger \`vote_impact_delete\` after delete on \`vote\` when old.\`contact_id\` is not null begin ${REMOVE('old.`post_id`', 'old.`contact_id`')} end`,
    );
    this.addSql(
      `create trigger \`vote_impact_update\` after update of \`post_id\`, \`contact_id\` on \`vote\`
       when old.\`post_id\` is not new.\`post_id\` or old.\`contact_id\` is not new.\`contact_id\` begin
       ${REMOVE('old.`post_id`', 'old.`contact_id`')}
       ${ADD('new.`post_id`', 'new.`contact_id`')}
       end`,
    );
    this.addSql(
      `create trigger \`contact_impact_update\` after update of \`mrr_cents\`, \`currency\` on \`contact\`
       when old.\`mrr_cents\` is not new.\`mrr_cents\` or old.\`currency\` is not new.\`currency\` begin
       update \`post_impact\` set \`mrr_cents\` = \`mrr_cents\` - old.\`mrr_cents\`, \`paying_voters\` = \`paying_voters\` - 1
         where old.\`mrr_cents\` > 0 and \`currency\` = old.\`currency\` and \`post_id\` in (select \`post_id\` from \`vote\` where \`contact_id\` = old.\`id\`);
       delete from \`post_impact\` where \`paying_voters\` <= 0 and \`post_id\` in (select \`post_id\` from \`vote\` where \`contact_id\` = old.\`id\`);
       insert into \`post_impact\` (\`post_id\`, \`currency\`, \`organization_id\`, \`mrr_cents\`, \`paying_voters\`)
         select distinct v.\`post_id\`, new.\`currency\`, new.\`organization_id\`, new.\`mrr_cents\`, 1 from \`vote\` v
         where v.\`contact_id\` = new.\`id\` and new.\`mrr_cents\` > 0 and new.\`currency\` is not null
         on conflict (\`post_id\`, \`currency\`) do update set \`mrr_cents\` = \`mrr_cents\` + excluded.\`mrr_cents\`, \`paying_voters\` = \`paying_voters\` + 1;
       end`,
    );
    this.addSql(
      `insert into \`post_impact\` (\`post_id\`, \`currency\`, \`organization_id\`, \`mrr_cents\`, \`paying_voters\`)
       select d.\`post_id\`, d.\`currency\`, d.\`organization_id\`, sum(d.\`mrr_cents\`), count(*) from (
         select distinct v.\`post_id\`, c.\`id\`, c.\`currency\`, c.\`organization_id\`, c.\`mrr_cents\` from \`vote\` v join \`contact\` c on c.\`id\` = v.\`contact_id\`
         where c.\`mrr_cents\` > 0 and c.\`currency\` is not null) d
       group by d.\`post_id\`, d.\`currency\`, d.\`organization_id\``,
    );
  }
}
