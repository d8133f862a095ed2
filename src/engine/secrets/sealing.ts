import { type Database, idempotencyKeys, mail, organizations, webhooks, workspaceSso } from '../store/index.js';
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
};

/** What a reseal did: values now sealed under the current key, and values no configured key opens (left as they are). */
export interface ResealReport {
  webhookSecrets: number;
  idempotentAnswers: number;
  portalSecrets: number;
  ssoSecrets: number;
  /** Sign-in codes' and invitations' mail not sent yet. */
  accountMail: number;
  unopenable: number;
}

const BATCH = 500;

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
    unopenable: 0,
  };
  /** Reseal one value per row, rows read by id in batches; each resealed value counted under `counted`. */
  async function byId(
    counted: 'webhookSecrets' | 'accountMail',
    read: (after: string) => Promise<Array<{ id: string; value: string }>>,
    contextOf: (id: string) => string,
    replace: (id: string, was: string, sealed: string) => Promise<void>,
  ) {
    for (let after = ''; ; ) {
      const rows = await read(after);
      for (const row of rows) {
        if (!box.opens(row.value)) report.unopenable++;
        else {
          const context = contextOf(row.id);
          await replace(row.id, row.value, box.seal(box.open(row.value, context), context));
          report[counted]++;
        }
      }
      if (rows.length < BATCH) break;
      after = rows[rows.length - 1]!.id;
    }
  }
  await byId(
    'webhookSecrets',
    async (after) =>
      (await webhooks.secretsNotSealedWith(db, box.keyId, after, BATCH)).map((r) => ({ id: r.id, value: r.secret })),
    sealedAt.webhookSecret,
    (id, was, sealed) => webhooks.replaceSecret(db, id, was, sealed),
  );
  for (let after: readonly [string, string] = ['', '']; ; ) {
    const rows = await idempotencyKeys.answersNotSealedWith(db, box.keyId, after, BATCH);
    for (const row of rows) {
      if (!box.opens(row.body)) report.unopenable++;
      else {
        const context = sealedAt.idempotentAnswer(row.organizationId, row.key);
        await idempotencyKeys.replaceAnswer(
          db,
          row.organizationId,
          row.key,
          row.body,
          box.seal(box.open(row.body, context), context),
        );
        report.idempotentAnswers++;
      }
    }
    if (rows.length < BATCH) break;
    const last = rows[rows.length - 1]!;
    after = [last.organizationId, last.key];
  }
  for (let after = ''; ; ) {
    const rows = await organizations.portalSecretsNotSealedWith(db, box.keyId, after, BATCH);
    for (const row of rows) {
      // Both secrets of a workspace are bound to the same place; the previous one is the old value of the current.
      const context = sealedAt.portalSecret(row.id);
      const values = [row.current, row.previous];
      if (values.some((v) => v !== null && !box.opens(v))) report.unopenable++;
      else {
        const [current, previous] = values.map((v) => (v === null ? null : box.seal(box.open(v, context), context)));
        await organizations.replacePortalSecrets(db, row.id, row, {
          current: current!,
          previous: previous!,
          previousUntil: row.previousUntil,
        });
        report.portalSecrets++;
      }
    }
    if (rows.length < BATCH) break;
    after = rows[rows.length - 1]!.id;
  }
  // One row per workspace that set up single sign-on: few enough to read at once.
  for (const row of await workspaceSso.all(db)) {
    if (row.clientSecret.startsWith(`fs1:${box.keyId}:`)) continue;
    if (!box.opens(row.clientSecret)) report.unopenable++;
    else {
      const context = sealedAt.ssoClientSecret(row.organizationId);
      await workspaceSso.replaceSecret(
        db,
        row.organizationId,
        row.clientSecret,
        box.seal(box.open(row.clientSecret, context), context),
      );
      report.ssoSecrets++;
    }
  }
  await byId(
    'accountMail',
    async (after) =>
      (await mail.sealedPayloadsNotSealedWith(db, box.keyId, after, BATCH)).map((r) => ({
        id: r.id,
        value: r.payload,
      })),
    sealedAt.accountMail,
    (id, was, sealed) => mail.replacePayload(db, id, was, sealed),
  );
  return report;
}
