import type { Page } from '../../schemas/common.js';
import {
  type Company,
  type CompanySort,
  type DeletedCompany,
  type ListCompaniesQueryInput,
  listCompaniesQuerySchema,
  updateCompanyBodySchema,
  upsertCompanyBodySchema,
} from '../../schemas/companies.js';
import {
  answer,
  type Bindings,
  type CursorKey,
  changeTime,
  FeedbackError,
  mrrAndId,
  parseInput,
  readCursor,
  timeAndId,
  toPage,
} from '../shared/index.js';
import { companies, companyLists, emit, type Sql, type WorkspaceContext } from '../store/index.js';
import { type CompanyRecord, companyPatch, toCompany } from './records.js';
import { applyCompanyPatch, upsertCompanies } from './write.js';

const CURSOR_KEYS: Record<CompanySort, (k: CursorKey) => boolean> = {
  created: timeAndId,
  mrr: mrrAndId,
};

async function read(sql: Sql, organizationId: string, id: string, lock = false): Promise<CompanyRecord> {
  const company = await companies.find(sql, organizationId, id, lock);
  if (!company) throw new FeedbackError('ERR_NOT_FOUND', `No company with id ${id}.`);
  return company;
}

async function withCounts(sql: Sql, records: CompanyRecord[]): Promise<Company[]> {
  const counts = await companies.memberCounts(
    sql,
    records.map((r) => r.id),
  );
  return records.map((r) => toCompany(r, counts.get(r.id) ?? 0));
}

/** How many posts of each kind a company's page lists. */
export const COMPANY_ACTIVITY_LIMIT = 50;

/** What a company's page shows beside its people. */
export interface CompanyActivity {
  company: Company;
  asked: companyLists.CompanyPost[];
  voted: companyLists.CompanyPost[];
}

/** A workspace's companies: the paying accounts its contacts belong to. Built once per workspace. */
export function createCompaniesService(ctx: WorkspaceContext) {
  const { db, organizationId, clock } = ctx;
  return {
    /** `GET /v1/companies`: keyset pages, newest first or by revenue (without revenue last); `q` on name and domain. */
    async list(query: ListCompaniesQueryInput = {}): Promise<Page<Company>> {
      const q = parseInput(listCompaniesQuerySchema, query);
      const kind = `companies:${q.sort}`;
      const key = readCursor(q.cursor, kind, CURSOR_KEYS[q.sort]);
      const rows = await companyLists.listSorted(db, organizationId, {
        q: q.q,
        sort: q.sort,
        limit: q.limit + 1,
        after: key && { value: key[0] as number | null, id: key[1] as string },
      });
      const page = toPage(rows, q.limit, kind, (last) => [
        q.sort === 'created' ? last.createdAt.getTime() : last.mrrCents,
        last.id,
      ]);
      return { data: await withCounts(db, page.data), nextCursor: page.nextCursor };
    },
    /** `POST /v1/companies`: upsert by externalCompanyId; `created` tells 201 from 200. */
    async upsert(body: unknown): Promise<{ company: Company; created: boolean }> {
      const input = parseInput(upsertCompanyBodySchema, body);
      const [done] = await db.transaction((tx) => upsertCompanies(tx, organizationId, [input], clock()));
      return { company: (await withCounts(db, [done!.company]))[0]!, created: done!.created };
    },
    /** `GET /v1/companies/{id}`. */
    async retrieve(id: string): Promise<Company> {
      return (await withCounts(db, [await read(db, organizationId, id)]))[0]!;
    },
    /** A company's page in the console: the company, the posts its people asked for and those they voted on. */
    async activity(id: string): Promise<CompanyActivity> {
      const company = (await withCounts(db, [await read(db, organizationId, id)]))[0]!;
      const [asked, voted] = await Promise.all([
        companyLists.postsAskedBy(db, id, COMPANY_ACTIVITY_LIMIT),
        companyLists.postsVotedBy(db, id, COMPANY_ACTIVITY_LIMIT),
      ]);
      return { company, asked, voted };
    },
    /** `PATCH /v1/companies/{id}`: omitted fields unchanged, null clears, metadata merged. */
    async update(id: string, body: unknown): Promise<Company> {
      const patch = companyPatch(parseInput(updateCompanyBodySchema, body));
      const updated = await db.transaction(async (tx) => {
        const current = await read(tx, organizationId, id, true);
        return applyCompanyPatch(tx, current, patch, changeTime(clock, current.updatedAt));
      });
      return (await withCounts(db, [updated]))[0]!;
    },
    /** `DELETE /v1/companies/{id}`: its people stay, without it. */
    async delete(id: string): Promise<DeletedCompany> {
      await db.transaction(async (tx) => {
        const current = await read(tx, organizationId, id, true);
        await companies.remove(tx, id);
        await emit(
          tx,
          {
            event: 'company.deleted',
            organizationId,
            company: { id, externalCompanyId: current.externalCompanyId },
          },
          changeTime(clock, current.updatedAt),
        );
      });
      return { id, deleted: true };
    },
  };
}
export type CompaniesService = ReturnType<typeof createCompaniesService>;

/** The contract's company operations, on this service. */
export const COMPANY_OPERATIONS = {
  listCompanies: (service, { input }) => answer(service.list(input)),
  upsertCompany: async (service, { input }) => {
    const { company, created } = await service.upsert(input);
    return { value: company, created };
  },
  retrieveCompany: (service, { params }) => answer(service.retrieve(params.companyId!)),
  updateCompany: (service, { params, input }) => answer(service.update(params.companyId!, input)),
  deleteCompany: (service, { params }) => answer(service.delete(params.companyId!)),
} satisfies Bindings<CompaniesService>;
