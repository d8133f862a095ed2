import type { UpsertCompanyBody } from '../../schemas/companies.js';
import { FeedbackError, isUniqueViolation, mergeMetadata, newId } from '../shared/index.js';
import { companies, type Sql, writeWithEvent } from '../store/index.js';
import { CONFLICT_MESSAGE, type CompanyPatch, type CompanyRecord, patched, toEventCompany } from './records.js';

/**
 * Write a patch over a company read in this transaction: the row and `company.updated` with its `changes`, when a
 * field really changed. A new externalCompanyId must be free in the workspace (ERR_CONFLICT).
 */
export async function applyCompanyPatch(
  tx: Sql,
  current: CompanyRecord,
  patch: CompanyPatch,
  now: Date,
): Promise<CompanyRecord> {
  const { next, changes } = patched(current, patch);
  if (Object.keys(changes).length === 0) return current;
  next.updatedAt = now;
  if ('externalCompanyId' in changes)
    if (await companies.externalIdTaken(tx, current.organizationId, next.externalCompanyId, current.id))
      throw new FeedbackError('ERR_CONFLICT', CONFLICT_MESSAGE);
  try {
    await writeWithEvent(
      tx,
      companies.update(tx, next),
      { event: 'company.updated', organizationId: current.organizationId, company: toEventCompany(next), changes },
      now,
    );
  } catch (err) {
    if (isUniqueViolation(err)) throw new FeedbackError('ERR_CONFLICT', CONFLICT_MESSAGE);
    throw err;
  }
  return next;
}

/**
 * Upsert companies by externalCompanyId in the caller's transaction, each with its event (`company.created`, or
 * `company.updated` when a field changed): what `POST /v1/companies` and identify's `companies` do. Returns them in
 * the order asked, each with whether it was created.
 */
export async function upsertCompanies(
  tx: Sql,
  organizationId: string,
  inputs: readonly UpsertCompanyBody[],
  now: Date,
): Promise<Array<{ company: CompanyRecord; created: boolean }>> {
  const found = await companies.findByExternalIds(
    tx,
    organizationId,
    inputs.map((c) => c.externalCompanyId),
  );
  const out: Array<{ company: CompanyRecord; created: boolean }> = [];
  for (const input of inputs) {
    let current = found.get(input.externalCompanyId);
    if (!current) {
      const record: CompanyRecord = {
        id: newId('com', now.getTime()),
        organizationId,
        externalCompanyId: input.externalCompanyId,
        name: input.name ?? null,
        domain: input.domain ?? null,
        plan: input.plan ?? null,
        mrrCents: input.mrrCents ?? null,
        currency: input.currency ?? null,
        metadata: mergeMetadata({}, input.metadata ?? {}),
        createdAt: now,
        updatedAt: now,
      };
      const inserted = await writeWithEvent(
        tx,
        companies.insert(tx, record),
        { event: 'company.created', organizationId, company: toEventCompany(record) },
        now,
      );
      if (inserted) {
        out.push({ company: record, created: true });
        continue;
      }
      // A concurrent upsert inserted it first (and has committed: the insert waited for it); patch what it wrote.
      current = (await companies.findByExternalIds(tx, organizationId, [input.externalCompanyId])).get(
        input.externalCompanyId,
      );
      if (!current)
        throw new FeedbackError('ERR_CONFLICT', 'The company kept changing concurrently; retry the request.');
    }
    const { externalCompanyId: _same, ...patch } = input;
    out.push({ company: await applyCompanyPatch(tx, current, patch as CompanyPatch, now), created: false });
  }
  return out;
}
