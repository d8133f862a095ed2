import {
  type Database,
  idempotencyKeys,
  integrations,
  mail,
  organizations,
  webhooks,
  workspaceSso,
} from '../store/index.js';
import type { SecretBox } from './keys.js';

/** Where each kind of sealed value is kept: the context it is bound to. */
export const sealedAt = {
  webhookSecret: (webhookId: string) => `webhook:${webhookId}`,
  idempotentAnswer: (organizationId: string, key: string) => `idempotency:${organizationId}:${key}`,
  portalSecret: (organizationId: string) => `portal-secret:${organizationId}`,
  ssoClientSecret: (organizationId: string) => `sso-client-secret:${organizationId}`,
  /** A console sign-in with single sign-on on its way (the browser keeps it in a cookie for ten minutes). */
  ssoPending: () => 'sso-pending',
  /** What a sign-in code's or an invitation's mail says, in its outbox row until it is sent. */
  accountMail: (mailId: string) => `mail:${mailId}`,
  /** A connection to Linear, GitHub or Slack: its tokens, keys and inbound signing secret, as one JSON object. */
  integrationCredentials: (integrationId: string) => `integration:${integrationId}`,
};

/** What a reseal did: values now sealed under the current key, and values no configured key opens (left as they are). */
export interface ResealReport {
  webhookSecrets: number;
  idempotentAnswers: number;
  portalSecrets: number;
  ssoSecrets: number;
  /** Sign-in codes' and invitations' mail not sent yet. */
  accountMail: number;
  /** Connections to Linear, GitHub and Slack. */
  integrationCredentials: number;
  unopenable: number;
}

const BATCH = 500;

/**
 * One kind of stored sealed value: read in batches after a position (`first`, then the last row's `positionOf`), its
 * values (a row may hold several, bound to one context, or none: null), and how a row is replaced if it did not change
 * meanwhile.
 */
interface SealedKind<R, P> {
  counted: Exclude<keyof ResealReport, 'unopenable'>;
  first: P;
  read(after: P): Promise<R[]>;
  positionOf(row: R): P;
  values(row: R): Array<string | null>;
  context(row: R): string;
  replace(row: R, sealed: Array<string | null>): Promise<void>;
}

/** Reseal every value of one kind under the current key; what no configured key opens is counted and left. */
async function resealKind<R, P>(box: SecretBox, report: ResealReport, kind: SealedKind<R, P>): Promise<void> {
  for (let after = kind.first; ; ) {
    const rows = await kind.read(after);
    for (const row of rows) {
      const values = kind.values(row);
      const context = kind.context(row);
      if (values.some((v) => v !== null && !box.opens(v))) report.unopenable++;
      else {
        await kind.replace(
          row,
          values.map((v) => (v === null ? null : box.seal(box.open(v, context), context))),
        );
        report[kind.counted]++;
      }
    }
    if (rows.length < BATCH) break;
    after = kind.positionOf(rows[rows.length - 1]!);
  }
}

/** Every kind of sealed value the store keeps, each read where it is not sealed under `keyId` yet. */
function sealedKinds(db: Database, keyId: string) {
  const byId = { first: '', positionOf: (row: { id: string }) => row.id };
  const webhookSecrets: SealedKind<{ id: string; secret: string }, string> = {
    counted: 'webhookSecrets',
    ...byId,
    read: (after) => webhooks.secretsNotSealedWith(db, keyId, after, BATCH),
    values: (row) => [row.secret],
    context: (row) => sealedAt.webhookSecret(row.id),
    replace: (row, [sealed]) => webhooks.replaceSecret(db, row.id, row.secret, sealed!),
  };
  type Answer = { organizationId: string; key: string; body: string };
  const idempotentAnswers: SealedKind<Answer, readonly [string, string]> = {
    counted: 'idempotentAnswers',
    first: ['', ''],
    positionOf: (row) => [row.organizationId, row.key],
    read: (after) => idempotencyKeys.answersNotSealedWith(db, keyId, after, BATCH),
    values: (row) => [row.body],
    context: (row) => sealedAt.idempotentAnswer(row.organizationId, row.key),
    replace: (row, [sealed]) => idempotencyKeys.replaceAnswer(db, row.organizationId, row.key, row.body, sealed!),
  };
  type PortalSecrets = Awaited<ReturnType<typeof organizations.portalSecretsNotSealedWith>>[number];
  // Both secrets of a workspace are bound to the same place; the previous one is the old value of the current.
  const portalSecrets: SealedKind<PortalSecrets, string> = {
    counted: 'portalSecrets',
    ...byId,
    read: (after) => organizations.portalSecretsNotSealedWith(db, keyId, after, BATCH),
    values: (row) => [row.current, row.previous],
    context: (row) => sealedAt.portalSecret(row.id),
    replace: (row, [current, previous]) =>
      organizations.replacePortalSecrets(db, row.id, row, {
        current: current!,
        previous: previous!,
        previousUntil: row.previousUntil,
      }),
  };
  type Sso = { organizationId: string; clientSecret: string };
  // One row per workspace that set up single sign-on: few enough to read at once.
  const ssoSecrets: SealedKind<Sso, string | null> = {
    counted: 'ssoSecrets',
    first: null,
    positionOf: (row) => row.organizationId,
    read: async (after) =>
      after === null ? (await workspaceSso.all(db)).filter((r) => !r.clientSecret.startsWith(`fs1:${keyId}:`)) : [],
    values: (row) => [row.clientSecret],
    context: (row) => sealedAt.ssoClientSecret(row.organizationId),
    replace: (row, [sealed]) => workspaceSso.replaceSecret(db, row.organizationId, row.clientSecret, sealed!),
  };
  const accountMail: SealedKind<{ id: string; payload: string }, string> = {
    counted: 'accountMail',
    ...byId,
    read: (after) => mail.sealedPayloadsNotSealedWith(db, keyId, after, BATCH),
    values: (row) => [row.payload],
    context: (row) => sealedAt.accountMail(row.id),
    replace: (row, [sealed]) => mail.replacePayload(db, row.id, row.payload, sealed!),
  };
  const integrationCredentials: SealedKind<{ id: string; credentials: string }, string> = {
    counted: 'integrationCredentials',
    ...byId,
    read: (after) => integrations.credentialsNotSealedWith(db, keyId, after, BATCH),
    values: (row) => [row.credentials],
    context: (row) => sealedAt.integrationCredentials(row.id),
    replace: (row, [sealed]) => integrations.replaceCredentials(db, row.id, row.credentials, sealed!),
  };
  return [webhookSecrets, idempotentAnswers, portalSecrets, ssoSecrets, accountMail, integrationCredentials] as const;
}

/**
 * Seal again under the current key every stored value that is not: values written before sealing existed, and
 * values sealed under a fallback key (the last step of a key rotation). Values sealed under a key that is not
 * configured are counted and left alone. Each row is replaced only if it did not change meanwhile, so running this
 * beside serving processes is safe.
 */
export async function resealStored(db: Database, box: SecretBox): Promise<ResealReport> {
  const report: ResealReport = {
    webhookSecrets: 0,
    idempotentAnswers: 0,
    portalSecrets: 0,
    ssoSecrets: 0,
    accountMail: 0,
    integrationCredentials: 0,
    unopenable: 0,
  };
  for (const kind of sealedKinds(db, box.keyId)) await resealKind(box, report, kind as SealedKind<unknown, unknown>);
  return report;
}
