// The contract's rows for Integrations: the workspace's connections to Linear, GitHub and Slack.
import type { OperationDefinition, OperationDocs } from '../definition.js';

export const INTEGRATIONS = {
  listIntegrations: {
    method: 'GET',
    path: '/v1/integrations',
    scope: 'read',
    resource: 'integrations',
    query: 'pageQuerySchema',
    answers: { page: 'integrationPageSchema' },
    tool: 'list_integrations',
    client: 'integrations.list',
  },
  deleteIntegration: {
    method: 'DELETE',
    path: '/v1/integrations/:integrationId',
    scope: 'read:write',
    resource: 'integrations',
    answers: { data: 'deletedIntegrationSchema' },
    tool: 'delete_integration',
    client: 'integrations.delete',
  },
} as const satisfies Record<string, OperationDefinition>;

/** What people and agents read of these operations (the OpenAPI document, the tools); the client carries none of it. */
export const INTEGRATION_DOCS = {
  listIntegrations: {
    summary: 'List integrations',
    description:
      'The workspace connections to Linear, GitHub and Slack, as a page: the service, how it signs in, the account it reaches, and whether its last call failed (never its credentials).',
    title: 'List integrations',
  },
  deleteIntegration: {
    summary: 'Remove an integration',
    description:
      'Disconnect a service: the connection, its sealed credentials, its linked issues and its calls not made yet go. What the service already holds (issues, messages) stays there.',
    title: 'Remove an integration',
  },
} satisfies OperationDocs<typeof INTEGRATIONS>;
