// npm run contract:examples: run every operation of the contract once against a real engine (a fresh SQLite file, a
// fixed clock) through the REST app, and write what each was sent and answered to src/contract/examples.ts: the
// OpenAPI document's examples. test/h3/openapi.test.ts holds each one valid against its operation's schemas.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '../src/client/index.js';
import { OPERATION_IDS, type OperationId } from '../src/contract/index.js';
import { createEngine } from '../src/engine/index.js';
import { createApp } from '../src/h3/index.js';

const dir = mkdtempSync(join(tmpdir(), 'feedback-examples-'));
let now = Date.parse('2026-11-02T09:30:00.000Z');
const engine = await createEngine({
  database: join(dir, 'examples.db'),
  log: () => {},
  clock: () => new Date(now),
  webhooks: { allowPrivateNetworks: true },
});
try {
  await engine.migrate();
  const org = await engine.organizations.create({ name: 'Acme', plan: 'paid' });
  const { key } = await engine.keys.create(org.id, 'read:write');
  const app = createApp({ engine, logError: () => {} });
  let status = 0;
  const client = createClient({
    apiKey: key,
    baseUrl: 'https://feedback.example.com',
    fetch: async (input, init) => {
      const res = await app.fetch(new Request(input as Request, init));
      status = res.status;
      return res;
    },
  });
  const examples: Record<
    string,
    { params?: Record<string, string>; input?: unknown; status: number; response: unknown }
  > = {};
  /** Run an operation, keep its example, and answer its `data` (or page). */
  const run = async (id: OperationId, params?: Record<string, string>, input?: unknown) => {
    now += 60_000;
    const response = (await client.operation(id, {
      ...(params && { params }),
      ...(input !== undefined && { input }),
    })) as {
      data: never;
    };
    examples[id] = { ...(params && { params }), ...(input !== undefined && { input }), status, response };
    return response.data as Record<string, never> & { id: string };
  };

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
  const initech = (await client.companies.list({ q: 'initech' })).data[0]!;
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
  await client.votes.create(post.id, { contactId: grace.id });
  await run('listPostVotes', { postId: post.id }, { sort: 'mrr', currency: 'USD' });
  await run('listPosts', undefined, { boardId: board.id, sort: 'impact', currency: 'USD', limit: 2 });
  await run('retrievePost', { postId: post.id });
  await run('listContactPosts', { contactId: ada.id }, { limit: 10 });
  const comment = await run(
    'createComment',
    { postId: post.id },
    { bodyText: 'Yes please, my eyes thank you.', contactId: ada.id },
  );
  await client.comments.create(post.id, {
    bodyText: 'Planned for May.',
    official: true,
    authorName: 'Sam from Acme',
    parentId: comment.id,
  });
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
  const draft = await client.changelog.create({ boardId: board.id, title: 'Offline mode (draft)' });
  await run('listChangelogEntries', undefined, { status: 'published' });
  await run('deleteChangelogEntry', { entryId: draft.id });
  await run('deleteVote', { postId: post.id, contactId: grace.id });
  await run('deleteComment', { commentId: comment.id });
  await run('deletePost', { postId: twin.id });
  await run('deleteTag', { tagId: spare.id });
  await run('deleteBoard', { boardId: bugs.id });
  await run('whoami');
  const hook = (await run('createWebhook', undefined, {
    url: 'https://hooks.example.com/feedback',
    events: ['post.created', 'vote.created'],
    description: 'Our CRM',
  })) as unknown as { id: string };
  await run('listWebhooks', undefined, { limit: 10 });
  await run('retrieveWebhook', { webhookId: hook.id });
  await run('updateWebhook', { webhookId: hook.id }, { events: ['post.created', 'post.status_changed'] });
  await client.posts.create(board.id, { title: 'Calendar sync' });
  const deliveries = await run('listWebhookDeliveries', { webhookId: hook.id }, { limit: 1 });
  const delivery = (deliveries as unknown as Array<{ id: string }>)[0];
  if (delivery) await run('replayWebhookDelivery', { webhookId: hook.id, deliveryId: delivery.id });
  await run('deleteWebhook', { webhookId: hook.id });
  await run('deleteCompany', { companyId: company.id });
  await run('deleteContact', { contactId: grace.id });

  const missing = OPERATION_IDS.filter((id) => !(id in examples));
  if (missing.length > 0) throw new Error(`No example for ${missing.join(', ')}`);
  const ordered = Object.fromEntries(OPERATION_IDS.map((id) => [id, examples[id]]));
  writeFileSync(
    join(import.meta.dirname, '../src/contract/examples.ts'),
    `// Generated by \`npm run contract:examples\` (scripts/record-examples.ts): each operation run once against a real
// engine, what it was sent and what it answered. The OpenAPI document's examples; test/h3/openapi.test.ts holds each
// valid against its operation's schemas.
import type { OperationId } from './operations.js';

export interface OperationExample {
  params?: Record<string, string>;
  input?: unknown;
  status: number;
  response: unknown;
}

export const OPERATION_EXAMPLES: Record<OperationId, OperationExample> = ${JSON.stringify(ordered, null, 2)};
`,
  );
} finally {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
}
