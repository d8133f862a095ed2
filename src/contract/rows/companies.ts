// The contract's rows for Companies: the paying accounts contacts belong to.
import type { OperationDefinition, OperationDocs } from '../definition.js';

export const COMPANIES = {
  listCompanies: {
    method: 'GET',
    path: '/v1/companies',
    scope: 'read',
    resource: 'companies',
    query: 'listCompaniesQuerySchema',
    answers: { page: 'companyPageSchema' },
    tool: 'list_companies',
    client: 'companies.list',
  },
  upsertCompany: {
    method: 'POST',
    path: '/v1/companies',
    scope: 'read:write',
    resource: 'companies',
    body: 'upsertCompanyBodySchema',
    answers: { data: 'companySchema', statuses: [200, 201] },
    idempotency: 'natural',
    errors: [409],
    tool: 'upsert_company',
    client: 'companies.upsert',
  },
  retrieveCompany: {
    method: 'GET',
    path: '/v1/companies/:companyId',
    scope: 'read',
    resource: 'companies',
    answers: { data: 'companySchema' },
    tool: 'get_company',
    client: 'companies.retrieve',
  },
  updateCompany: {
    method: 'PATCH',
    path: '/v1/companies/:companyId',
    scope: 'read:write',
    resource: 'companies',
    body: 'updateCompanyBodySchema',
    answers: { data: 'companySchema' },
    errors: [409],
    tool: 'update_company',
    client: 'companies.update',
  },
  deleteCompany: {
    method: 'DELETE',
    path: '/v1/companies/:companyId',
    scope: 'read:write',
    resource: 'companies',
    answers: { data: 'deletedCompanySchema' },
    tool: 'delete_company',
    client: 'companies.delete',
  },
  listCompanyContacts: {
    method: 'GET',
    path: '/v1/companies/:companyId/contacts',
    scope: 'read',
    resource: 'companies',
    query: 'pageQuerySchema',
    answers: { page: 'contactPageSchema' },
    tool: 'list_company_contacts',
    client: 'companies.listContacts',
  },
} as const satisfies Record<string, OperationDefinition>;

/** What people and agents read of these operations (the OpenAPI document, the tools); the client carries none of it. */
export const COMPANY_DOCS = {
  listCompanies: {
    summary: 'List companies',
    description:
      'List the workspace companies, newest first by default; q finds a text in the name or domain; sort by created or mrr (highest first, companies without revenue last). Returns a page: follow nextCursor for more.',
    title: 'List companies',
  },
  upsertCompany: {
    summary: 'Create or update a company by externalCompanyId',
    description:
      'Create the company with this externalCompanyId (required), or update it: fields not given keep their values, null clears one, metadata merges (null removes a key); mrrCents and currency go together. Safe to repeat.',
    title: 'Create or update a company',
  },
  retrieveCompany: {
    summary: 'Retrieve a company',
    description: 'One company by id, with how many contacts belong to it.',
    title: 'Get a company',
  },
  updateCompany: {
    summary: 'Update a company',
    description:
      'Change some fields of a company; fields not given keep their values, null clears one, metadata merges. A new externalCompanyId must be free (ERR_CONFLICT otherwise).',
    title: 'Update a company',
  },
  deleteCompany: {
    summary: 'Delete a company',
    description: 'Delete a company for good. Its contacts stay, without it; its revenue leaves impact.',
    title: 'Delete a company',
  },
  listCompanyContacts: {
    summary: "List a company's contacts",
    description: 'The contacts who belong to a company, newest first, as a page.',
    title: "List a company's contacts",
  },
} satisfies OperationDocs<typeof COMPANIES>;
