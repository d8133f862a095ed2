import { expect, it } from 'vitest';
import {
  answersPage,
  OPERATION_IDS,
  OPERATION_SCHEMAS,
  OPERATIONS,
  pathParams,
  writes,
} from '../../src/contract/index.js';

/** The operations of the spec and decisions (and of the issues that add some), by resource: the contract must hold these. */
const SPECIFIED = [
  [
    'listContacts',
    'createContact',
    'identifyContact',
    'retrieveContact',
    'updateContact',
    'deleteContact',
    'listContactPosts',
  ],
  ['listBoards', 'createPost', 'updatePost', 'whoami'],
  [
    'createWebhook',
    'listWebhooks',
    'retrieveWebhook',
    'updateWebhook',
    'deleteWebhook',
    'listWebhookDeliveries',
    'replayWebhookDelivery',
  ],
].flat();

it('the contract holds the operations of the spec and decisions, each with its schemas, one agent tool and one route each', () => {
  expect([...OPERATION_IDS].sort()).toEqual([...SPECIFIED].sort());
  expect(Object.keys(OPERATION_SCHEMAS).sort()).toEqual([...OPERATION_IDS].sort());
  const tools = OPERATION_IDS.map((id) => OPERATIONS[id].tool.name);
  expect(new Set(tools).size).toBe(OPERATION_IDS.length);
  expect(
    tools.filter((name) => name.endsWith('_contact') || name.endsWith('_contacts') || name === 'list_contact_posts'),
  ).toHaveLength(7);
  expect(tools).toEqual(expect.arrayContaining(['list_contacts', 'create_contact', 'identify_contact']));
  for (const name of tools) expect(name).toMatch(/^[a-z]+(_[a-z]+)*$/);
  expect(new Set(OPERATION_IDS.map((id) => `${OPERATIONS[id].method} ${OPERATIONS[id].path}`)).size).toBe(
    OPERATION_IDS.length,
  );
});

it('scopes follow the rule: read allows every GET, read:write everything else', () => {
  for (const id of OPERATION_IDS) expect(OPERATIONS[id].scope, id).toBe(writes(OPERATIONS[id]) ? 'read:write' : 'read');
});

it('every POST says how a retry is made safe; bodies only where the method takes one; lists are GETs that answer a page', () => {
  for (const id of OPERATION_IDS) {
    const operation = OPERATIONS[id];
    expect('idempotency' in operation, id).toBe(operation.method === 'POST');
    if ('body' in OPERATION_SCHEMAS[id]) expect(['POST', 'PATCH'], id).toContain(operation.method);
    if (answersPage(id)) expect(operation.method, id).toBe('GET');
    for (const name of pathParams(operation.path)) expect(name, id).toMatch(/^[a-z]+Id$/);
  }
  expect(OPERATIONS.identifyContact.idempotency).toBe('natural');
});
