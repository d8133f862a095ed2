// The contract's rows for Keys: the key in use.
import type { OperationDefinition, OperationDocs } from '../definition.js';

export const KEYS = {
  whoami: {
    method: 'GET',
    path: '/v1/whoami',
    scope: 'read',
    resource: 'keys',
    answers: { data: 'whoamiSchema' },
    tool: 'whoami',
    client: 'whoami',
  },
} as const satisfies Record<string, OperationDefinition>;

/** What people and agents read of these operations (the OpenAPI document, the tools); the client carries none of it. */
export const KEY_DOCS = {
  whoami: {
    summary: 'The key, its workspace and its rate-limit budget',
    description: 'The key in use, its workspace, its scope and what is left of its rate-limit budget.',
    title: 'Who am I',
  },
} satisfies OperationDocs<typeof KEYS>;
