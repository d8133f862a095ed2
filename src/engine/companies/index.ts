// Companies: the paying accounts of the workspace's customer, and which contacts belong to them (identify's
// `companies`, their own REST operations).

export { namedFields, sameCompanies, toCompanyRef } from './records.js';
export {
  COMPANY_OPERATIONS,
  type CompaniesService,
  type CompanyActivity,
  createCompaniesService,
} from './service.js';
export { upsertCompanies } from './write.js';
