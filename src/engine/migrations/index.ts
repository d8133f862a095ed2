import type { MigrationObject } from '@mikro-orm/core';
import type { SqlDialect } from '../store/sql.js';
import type { BothDialects } from './both.js';
import { VotersByCurrency } from './Migration20261206000000VotersByCurrency.js';
import { BoardDescription } from './Migration20261207000000BoardDescription.js';
import { Companies } from './Migration20261208000000Companies.js';
import { CompanyImpact } from './Migration20261209000000CompanyImpact.js';
import { CompanySearch } from './Migration20261210000000CompanySearch.js';
import { CommentEdits } from './Migration20261211000000CommentEdits.js';
import { ImportRecords } from './Migration20261212000000ImportRecords.js';
import { OnePerson } from './Migration20261213000000OnePerson.js';
import { SearchForgiveness } from './Migration20261214000000SearchForgiveness.js';
import { DuplicateDismissals } from './Migration20261215000000DuplicateDismissals.js';
import { PostEmbeddings } from './Migration20261216000000PostEmbeddings.js';
import { Languages } from './Migration20261217000000Languages.js';
import { Integrations } from './Migration20261218000000Integrations.js';
import { SearchSegments } from './Migration20261219000000SearchSegments.js';
import { SearchBound } from './Migration20261219010000SearchBound.js';
import { Migration20261122000000Initial as PgInitial } from './postgresql/Migration20261122000000Initial.js';
import { Migration20261122010000ContactVersion as PgContactVersion } from './postgresql/Migration20261122010000ContactVersion.js';
import { Migration20261122020000TagsChangelog as PgTagsChangelog } from './postgresql/Migration20261122020000TagsChangelog.js';
import { Migration20261122030000Webhooks as PgWebhooks } from './postgresql/Migration20261122030000Webhooks.js';
import { Migration20261122040000IdempotencyKeys as PgIdempotencyKeys } from './postgresql/Migration20261122040000IdempotencyKeys.js';
import { Migration20261123010000DeliveryEventOrder as PgDeliveryEventOrder } from './postgresql/Migration20261123010000DeliveryEventOrder.js';
import { Migration20261123020000SealedSecrets as PgSealedSecrets } from './postgresql/Migration20261123020000SealedSecrets.js';
import { Migration20261123030000ApiKeyLastUsed as PgApiKeyLastUsed } from './postgresql/Migration20261123030000ApiKeyLastUsed.js';
import { Migration20261123040000SharedRateLimits as PgSharedRateLimits } from './postgresql/Migration20261123040000SharedRateLimits.js';
import { Migration20261124000000Portal as PgPortal } from './postgresql/Migration20261124000000Portal.js';
import { Migration20261125000000PortalParticipation as PgPortalParticipation } from './postgresql/Migration20261125000000PortalParticipation.js';
import { Migration20261126000000Notifications as PgNotifications } from './postgresql/Migration20261126000000Notifications.js';
import { Migration20261127000000Search as PgSearch } from './postgresql/Migration20261127000000Search.js';
import { Migration20261127010000ShownPostIndexes as PgShownPostIndexes } from './postgresql/Migration20261127010000ShownPostIndexes.js';
import { Migration20261128000000SearchDocuments as PgSearchDocuments } from './postgresql/Migration20261128000000SearchDocuments.js';
import { Migration20261129000000Team as PgTeam } from './postgresql/Migration20261129000000Team.js';
import { Migration20261130000000Triage as PgTriage } from './postgresql/Migration20261130000000Triage.js';
import { Migration20261201000000Console as PgConsole } from './postgresql/Migration20261201000000Console.js';
import { Migration20261203000000SearchWords as PgSearchWords } from './postgresql/Migration20261203000000SearchWords.js';
import { Migration20261203010000SearchPendingList as PgSearchPendingList } from './postgresql/Migration20261203010000SearchPendingList.js';
import { Migration20261204000000SearchWordsLater as PgSearchWordsLater } from './postgresql/Migration20261204000000SearchWordsLater.js';
import { Migration20261205000000SignInSecurity as PgSignInSecurity } from './postgresql/Migration20261205000000SignInSecurity.js';
import { Migration20261122000000Initial as SqliteInitial } from './sqlite/Migration20261122000000Initial.js';
import { Migration20261122010000ContactVersion as SqliteContactVersion } from './sqlite/Migration20261122010000ContactVersion.js';
import { Migration20261122020000TagsChangelog as SqliteTagsChangelog } from './sqlite/Migration20261122020000TagsChangelog.js';
import { Migration20261122030000Webhooks as SqliteWebhooks } from './sqlite/Migration20261122030000Webhooks.js';
import { Migration20261122040000IdempotencyKeys as SqliteIdempotencyKeys } from './sqlite/Migration20261122040000IdempotencyKeys.js';
import { Migration20261123000000DropPrefixIndexes as SqliteDropPrefixIndexes } from './sqlite/Migration20261123000000DropPrefixIndexes.js';
import { Migration20261123010000DeliveryEventOrder as SqliteDeliveryEventOrder } from './sqlite/Migration20261123010000DeliveryEventOrder.js';
import { Migration20261123020000SealedSecrets as SqliteSealedSecrets } from './sqlite/Migration20261123020000SealedSecrets.js';
import { Migration20261123030000ApiKeyLastUsed as SqliteApiKeyLastUsed } from './sqlite/Migration20261123030000ApiKeyLastUsed.js';
import { Migration20261124000000Portal as SqlitePortal } from './sqlite/Migration20261124000000Portal.js';
import { Migration20261125000000PortalParticipation as SqlitePortalParticipation } from './sqlite/Migration20261125000000PortalParticipation.js';
import { Migration20261126000000Notifications as SqliteNotifications } from './sqlite/Migration20261126000000Notifications.js';
import { Migration20261127000000Search as SqliteSearch } from './sqlite/Migration20261127000000Search.js';
import { Migration20261128000000SearchScopes as SqliteSearchScopes } from './sqlite/Migration20261128000000SearchScopes.js';
import { Migration20261129000000Team as SqliteTeam } from './sqlite/Migration20261129000000Team.js';
import { Migration20261130000000Triage as SqliteTriage } from './sqlite/Migration20261130000000Triage.js';
import { Migration20261201000000Console as SqliteConsole } from './sqlite/Migration20261201000000Console.js';
import { Migration20261202000000SearchPendingUpsert as SqliteSearchPendingUpsert } from './sqlite/Migration20261202000000SearchPendingUpsert.js';
import { Migration20261204000000SearchWatermark as SqliteSearchWatermark } from './sqlite/Migration20261204000000SearchWatermark.js';
import { Migration20261205000000SignInSecurity as SqliteSignInSecurity } from './sqlite/Migration20261205000000SignInSecurity.js';

/** The first migration: when `migrate()` applies it, the database was new. */
export const INITIAL_MIGRATION = 'Migration20261122000000Initial';
/** The migration after which stored secrets are sealed: when `migrate()` applies it, it seals what came before. */
export const SEALED_SECRETS_MIGRATION = 'Migration20261123020000SealedSecrets';

/**
 * The migrations written once for both databases (both.ts, `forBothDialects`), in order, after each dialect's own:
 * a new change goes here, `['Migration<timestamp><Name>', Migration<timestamp><Name>]`.
 */
const FOR_BOTH: readonly (readonly [string, BothDialects])[] = [
  ['Migration20261206000000VotersByCurrency', VotersByCurrency],
  ['Migration20261207000000BoardDescription', BoardDescription],
  ['Migration20261208000000Companies', Companies],
  ['Migration20261209000000CompanyImpact', CompanyImpact],
  ['Migration20261210000000CompanySearch', CompanySearch],
  ['Migration20261211000000CommentEdits', CommentEdits],
  ['Migration20261212000000ImportRecords', ImportRecords],
  ['Migration20261213000000OnePerson', OnePerson],
  ['Migration20261214000000SearchForgiveness', SearchForgiveness],
  ['Migration20261215000000DuplicateDismissals', DuplicateDismissals],
  ['Migration20261216000000PostEmbeddings', PostEmbeddings],
  ['Migration20261217000000Languages', Languages],
  ['Migration20261218000000Integrations', Integrations],
  ['Migration20261219000000SearchSegments', SearchSegments],
  ['Migration20261219010000SearchBound', SearchBound],
];

/** Each dialect's migrations written for it alone, in order (every change up to 2026-12-05). */
const DIALECT_MIGRATIONS: Record<SqlDialect['name'], MigrationObject[]> = {
  sqlite: [
    { name: 'Migration20261122000000Initial', class: SqliteInitial },
    { name: 'Migration20261122010000ContactVersion', class: SqliteContactVersion },
    { name: 'Migration20261122020000TagsChangelog', class: SqliteTagsChangelog },
    { name: 'Migration20261122030000Webhooks', class: SqliteWebhooks },
    { name: 'Migration20261122040000IdempotencyKeys', class: SqliteIdempotencyKeys },
    { name: 'Migration20261123000000DropPrefixIndexes', class: SqliteDropPrefixIndexes },
    { name: 'Migration20261123010000DeliveryEventOrder', class: SqliteDeliveryEventOrder },
    { name: 'Migration20261123020000SealedSecrets', class: SqliteSealedSecrets },
    { name: 'Migration20261123030000ApiKeyLastUsed', class: SqliteApiKeyLastUsed },
    { name: 'Migration20261124000000Portal', class: SqlitePortal },
    { name: 'Migration20261125000000PortalParticipation', class: SqlitePortalParticipation },
    { name: 'Migration20261126000000Notifications', class: SqliteNotifications },
    { name: 'Migration20261127000000Search', class: SqliteSearch },
    { name: 'Migration20261128000000SearchScopes', class: SqliteSearchScopes },
    { name: 'Migration20261129000000Team', class: SqliteTeam },
    { name: 'Migration20261130000000Triage', class: SqliteTriage },
    { name: 'Migration20261201000000Console', class: SqliteConsole },
    { name: 'Migration20261202000000SearchPendingUpsert', class: SqliteSearchPendingUpsert },
    { name: 'Migration20261204000000SearchWatermark', class: SqliteSearchWatermark },
    { name: 'Migration20261205000000SignInSecurity', class: SqliteSignInSecurity },
  ],
  postgresql: [
    { name: 'Migration20261122000000Initial', class: PgInitial },
    { name: 'Migration20261122010000ContactVersion', class: PgContactVersion },
    { name: 'Migration20261122020000TagsChangelog', class: PgTagsChangelog },
    { name: 'Migration20261122030000Webhooks', class: PgWebhooks },
    { name: 'Migration20261122040000IdempotencyKeys', class: PgIdempotencyKeys },
    { name: 'Migration20261123010000DeliveryEventOrder', class: PgDeliveryEventOrder },
    { name: 'Migration20261123020000SealedSecrets', class: PgSealedSecrets },
    { name: 'Migration20261123030000ApiKeyLastUsed', class: PgApiKeyLastUsed },
    { name: 'Migration20261123040000SharedRateLimits', class: PgSharedRateLimits },
    { name: 'Migration20261124000000Portal', class: PgPortal },
    { name: 'Migration20261125000000PortalParticipation', class: PgPortalParticipation },
    { name: 'Migration20261126000000Notifications', class: PgNotifications },
    { name: 'Migration20261127000000Search', class: PgSearch },
    { name: 'Migration20261127010000ShownPostIndexes', class: PgShownPostIndexes },
    { name: 'Migration20261128000000SearchDocuments', class: PgSearchDocuments },
    { name: 'Migration20261129000000Team', class: PgTeam },
    { name: 'Migration20261130000000Triage', class: PgTriage },
    { name: 'Migration20261201000000Console', class: PgConsole },
    { name: 'Migration20261203000000SearchWords', class: PgSearchWords },
    { name: 'Migration20261203010000SearchPendingList', class: PgSearchPendingList },
    { name: 'Migration20261204000000SearchWordsLater', class: PgSearchWordsLater },
    { name: 'Migration20261205000000SignInSecurity', class: PgSignInSecurity },
  ],
};

/** The checked-in migrations, per dialect, in order. Referenced, not globbed, so bundling keeps them. */
export const MIGRATIONS: Record<SqlDialect['name'], MigrationObject[]> = {
  sqlite: [...DIALECT_MIGRATIONS.sqlite, ...FOR_BOTH.map(([name, both]) => ({ name, class: both.sqlite }))],
  postgresql: [...DIALECT_MIGRATIONS.postgresql, ...FOR_BOTH.map(([name, both]) => ({ name, class: both.postgresql }))],
};
