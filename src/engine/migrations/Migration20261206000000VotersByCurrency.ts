import { forBothDialects } from './both.js';

/**
 * A post's voters by revenue within one currency (the console's post page, a page at a time): the workspace's paying
 * contacts in a currency, most revenue first, walked from the index and each checked for a vote on the post.
 */
export const VotersByCurrency = forBothDialects({
  sqlite: [
    'create index `contact_org_currency_mrr_idx` on `contact` (`organization_id`, `currency`, `mrr_cents`, `id`)',
    "create index `post_held_idx` on `post` (`organization_id`, `created_at`) where `moderation_status` = 'pending' and `deleted_at` is null",
    'create index `vote_post_created_idx` on `vote` (`post_id`, `created_at`, `id`)',
  ],
  postgresql: [
    'create index "contact_org_currency_mrr_idx" on "contact" ("organization_id", "currency", "mrr_cents", "id")',
    'create index "post_held_idx" on "post" ("organization_id", "created_at") where "moderation_status" = \'pending\' and "deleted_at" is null',
    'create index "vote_post_created_idx" on "vote" ("post_id", "created_at", "id")',
  ],
});
