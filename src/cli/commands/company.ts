import type { Company, CompanySort } from '../../schemas/companies.js';
import { type DatabaseOptions, withEngine } from '../common.js';
import { type Io, print } from '../io.js';

export interface ListOptions extends DatabaseOptions {
  org: string;
  q?: string;
  sort?: CompanySort;
  limit?: string;
  cursor?: string;
}
export interface GetOptions extends DatabaseOptions {
  org: string;
}

const revenue = (c: Company) => (c.mrrCents === null ? '-' : `${(c.mrrCents / 100).toFixed(2)} ${c.currency}/month`);
const line = (c: Company) =>
  `${c.id}  ${c.externalCompanyId}  ${c.name ?? '(no name)'}${c.domain ? ` (${c.domain})` : ''}  ${revenue(c)}  ${c.memberCount} ${c.memberCount === 1 ? 'person' : 'people'}`;

/** `company list`: one page of the workspace's companies (`--cursor` for the next). */
export async function list(options: ListOptions, io: Io): Promise<void> {
  const page = await withEngine(options.db, (e) =>
    e.workspace(options.org).companies.list({
      ...(options.q === undefined ? {} : { q: options.q }),
      ...(options.sort === undefined ? {} : { sort: options.sort }),
      ...(options.limit === undefined ? {} : { limit: options.limit }),
      ...(options.cursor === undefined ? {} : { cursor: options.cursor }),
    }),
  );
  const text = page.data.map(line).join('\n') || 'No companies.';
  print(io, options.json, page, page.nextCursor ? `${text}\nMore: --cursor ${page.nextCursor}` : text);
}

/** `company get`: one company. */
export async function get(companyId: string, options: GetOptions, io: Io): Promise<void> {
  const company = await withEngine(options.db, (e) => e.workspace(options.org).companies.retrieve(companyId));
  print(io, options.json, { ...company }, line(company));
}
