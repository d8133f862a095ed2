import { expect, it } from 'vitest';
import {
  answersPage,
  OPERATION_IDS,
  OPERATION_SCHEMAS,
  OPERATIONS,
  pathParams,
  RESOURCES,
  writes,
} from '../../src/contract/index.js';

/**
 * The operations of the spec and decisions, by resource, each with its agent tool: the contract holds these for each of
 * these resources (and what issues add beside them, which their own tests check).
 */
const SPECIFIED: Record<string, Record<string, string>> = {
  contacts: {
    listContacts: 'list_contacts',
    createContact: 'create_contact',
    identifyContact: 'identify_contact',
    retrieveContact: 'get_contact',
    updateContact: 'update_contact',
    deleteContact: 'delete_contact',
  },
  boards: { listBoards: 'list_boards' },
  posts: { listContactPosts: 'list_contact_posts', createPost: 'create_post', updatePost: 'update_post' },
  webhooks: {
    createWebhook: 'create_webhook',
    listWebhooks: 'list_webhooks',
    retrieveWebhook: 'get_webhook',
    updateWebhook: 'update_webhook',
    deleteWebhook: 'delete_webhook',
    listWebhookDeliveries: 'list_webhook_deliveries',
    replayWebhookDelivery: 'replay_webhook_delivery',
  },
  keys: { whoami: 'whoami' },
};

it('the contract holds the operations of the spec and decisions, each with its schemas, one agent tool and one route each', () => {
  for (const [resource, operations] of Object.entries(SPECIFIED)) {
    const ids = OPERATION_IDS.filter((id) => OPERATIONS[id].resource === resource);
    expect(Object.fromEntries(ids.map((id) => [id, OPERATIONS[id].tool])), resource).toMatchObject(operations);
  }
  expect(Object.keys(RESOURCES)).toEqual(expect.arrayContaining(Object.keys(SPECIFIED)));
  expect(Object.keys(OPERATION_SCHEMAS).sort()).toEqual([...OPERATION_IDS].sort());
  const tools = OPERATION_IDS.map((id) => OPERATIONS[id].tool);
  expect(new Set(tools).size).toBe(OPERATION_IDS.length);
  for (const name of tools) expect(name).toMatch(/^[a-z]+(_[a-z]+)*$/);
  expect(new Set(OPERATION_IDS.map((id) => `${OPERATIONS[id].method} ${OPERATIONS[id].path}`)).size).toBe(
    OPERATION_IDS.length,
  );
  expect(new Set(OPERATION_IDS.map((id) => OPERATIONS[id].client)).size).toBe(OPERATION_IDS.length);
});

it('scopes follow the rule: read allows every GET, read:write everything else', () => {
  for (const id of OPERATION_IDS) expect(OPERATIONS[id].scope, id).toBe(writes(OPERATIONS[id]) ? 'read:write' : 'read');
});

it('every POST says how a retry is made safe; bodies only where the method takes one; lists are GETs that answer a page', () => {
  for (const id of OPERATION_IDS) {
    const operation = OPERATIONS[id];
    expect('idempotency' in operation, id).toBe(operation.method === 'POST');
    if ('body' in OPERATION_SCHEMAS[id]) expect(['POST', 'PUT', 'PATCH'], id).toContain(operation.method);
    if (answersPage(id)) expect(operation.method, id).toBe('GET');
    for (const name of pathParams(operation.path)) expect(name, id).toMatch(/^[a-z]+Id$/);
  }
  expect(OPERATIONS.identifyContact.idempotency).toBe('natural');
});
