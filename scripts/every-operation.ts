// Every operation of the contract, run once in an order where each finds what it needs (contacts, a company, boards,
// tags, posts with votes and comments, a changelog entry, a webhook with a delivery), then what can be deleted is.
// scripts/record-examples.ts records the REST answers as the OpenAPI examples; test/mcp/tools.test.ts runs it through
// the agent tools with the official client's output validation.
import type { OperationId } from '../src/contract/index.js';

/**
 * How the walk runs an operation: its path ids, its body or query, and whether this call is the one to keep (false:
 * a helper call on the way). It answers the operation's `data`: the item, or a list's items.
 */
export type RunOperation = (
  id: OperationId,
  params?: Record<string, string>,
  input?: unknown,
  keep?: boolean,
  // biome-ignore lint/suspicious/noExplicitAny: the walk reads ids from whatever each operation answers.
) => Promise<any>;

/**
 * Run every operation once (`receiverUrl`: where the webhook it registers delivers; `connectService`: connects a
 * service to the workspace as the console does, for the integrations' operations to list and remove).
 */
export async function everyOperation(
  run: RunOperation,
  receiverUrl: string,
  connectService: () => Promise<unknown>,
): Promise<void> {
  const ada = await run('createContact', undefined, {
    externalUserId: 'user_42',
    email: 'ada@example.com',
    name: 'Ada Lovelace',
    plan: 'pro',
    mrrCents: 4900,
    currency: 'USD',
  });
  const grace = await run('identifyContact', undefined, {
    externalUserId: 'user_43',
    email: 'grace@example.com',
    name: 'Grace Hopper',
    companies: [
      { externalCompanyId: 'acct_7', name: 'Initech', domain: 'initech.example', mrrCents: 120_000, currency: 'USD' },
    ],
  });
  await run('listContacts', undefined, { sort: 'mrr', limit: 2 });
  await run('retrieveContact', { contactId: ada.id });
  await run('updateContact', { contactId: ada.id }, { plan: 'enterprise', metadata: { seats: 12 } });
  const company = await run('upsertCompany', undefined, { externalCompanyId: 'acct_9', name: 'Globex', plan: 'scale' });
  await run('listCompanies', undefined, { sort: 'mrr', limit: 2 });
  await run('retrieveCompany', { companyId: company.id });
  await run('updateCompany', { companyId: company.id }, { mrrCents: 250_000, currency: 'USD' });
  const initech = (await run('listCompanies', undefined, { q: 'initech' }, false))[0]!;
  await run('listCompanyContacts', { companyId: initech.id }, { limit: 10 });
  const board = await run('createBoard', undefined, {
    name: 'Feature requests',
    description: 'What should we build next?',
  });
  const bugs = await run('createBoard', undefined, { name: 'Bugs', isPublic: false });
  await run('listBoards', undefined, { limit: 10 });
  await run('retrieveBoard', { boardId: board.id });
  await run('updateBoard', { boardId: bugs.id }, { description: 'Seen only by the team.' });
  const tag = await run('createTag', undefined, { name: 'Mobile' });
  const spare = await run('createTag', undefined, { name: 'Billing' });
  await run('listTags', undefined, { limit: 10 });
  await run('updateTag', { tagId: spare.id }, { name: 'Payments' });
  const post = await run(
    'createPost',
    { boardId: board.id },
    {
      title: 'Dark mode',
      body: { json: { type: 'doc' }, text: 'Please add a dark theme for night shifts.' },
      contactId: ada.id,
      tagIds: [tag.id],
    },
  );
  const twin = await run('createPost', { boardId: board.id }, { title: 'Night theme' });
  await run('updatePost', { postId: post.id }, { status: 'planned' });
  await run('setPostTags', { postId: post.id }, { tagIds: [tag.id, spare.id] });
  await run('createVote', { postId: post.id }, { contactId: ada.id });
  await run('createVote', { postId: post.id }, { contactId: grace.id }, false);
  await run('listPostVotes', { postId: post.id }, { sort: 'mrr', currency: 'USD' });
  await run('listPosts', undefined, { boardId: board.id, sort: 'impact', currency: 'USD', limit: 2 });
  await run('retrievePost', { postId: post.id });
  await run('listContactPosts', { contactId: ada.id }, { limit: 10 });
  const comment = await run(
    'createComment',
    { postId: post.id },
    { bodyText: 'Yes please, my eyes thank you.', contactId: ada.id },
  );
  await run(
    'createComment',
    { postId: post.id },
    { bodyText: 'Planned for May.', official: true, authorName: 'Sam from Acme', parentId: comment.id },
    false,
  );
  await run('updateComment', { commentId: comment.id }, { bodyText: 'Yes please: my eyes will thank you.' });
  await run('listPostComments', { postId: post.id }, { limit: 10 });
  await run(
    'createNote',
    { postId: post.id },
    { bodyText: 'Initech asked twice on calls.', authorEmail: 'sam@acme.example' },
  );
  await run('listPostNotes', { postId: post.id }, { limit: 10 });
  await run('mergePost', { postId: twin.id }, { intoPostId: post.id });
  const entry = await run('createChangelogEntry', undefined, {
    boardId: board.id,
    title: 'Dark mode is here',
    body: 'Switch it on in **Settings**.',
    postIds: [post.id],
  });
  await run('updateChangelogEntry', { entryId: entry.id }, { title: 'Dark mode has landed' });
  await run('retrieveChangelogEntry', { entryId: entry.id });
  await run('publishChangelogEntry', { entryId: entry.id }, { shipPosts: true });
  const draft = await run(
    'createChangelogEntry',
    undefined,
    { boardId: board.id, title: 'Offline mode (draft)' },
    false,
  );
  await run('listChangelogEntries', undefined, { status: 'published' });
  await run('deleteChangelogEntry', { entryId: draft.id });
  await run('deleteVote', { postId: post.id, contactId: grace.id });
  await run('deleteComment', { commentId: comment.id });
  await run('deletePost', { postId: twin.id });
  await run('deleteTag', { tagId: spare.id });
  await run('deleteBoard', { boardId: bugs.id });
  await run('whoami');
  const hook = await run('createWebhook', undefined, {
    url: receiverUrl,
    events: ['post.created', 'vote.created'],
    description: 'Our CRM',
  });
  await run('listWebhooks', undefined, { limit: 10 });
  await run('retrieveWebhook', { webhookId: hook.id });
  await run('updateWebhook', { webhookId: hook.id }, { events: ['post.created', 'post.status_changed'] });
  await run('createPost', { boardId: board.id }, { title: 'Calendar sync' }, false);
  const deliveries = await run('listWebhookDeliveries', { webhookId: hook.id }, { limit: 1 });
  const delivery = deliveries[0];
  if (delivery) await run('replayWebhookDelivery', { webhookId: hook.id, deliveryId: delivery.id });
  await run('deleteWebhook', { webhookId: hook.id });
  await connectService();
  const connected = await run('listIntegrations', undefined, { limit: 10 });
  await run('deleteIntegration', { integrationId: connected[0].id });
  await run('deleteCompany', { companyId: company.id });
  await run('deleteContact', { contactId: grace.id });
}
