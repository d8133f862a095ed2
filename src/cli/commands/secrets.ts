import { generateSecretKey } from '../../engine/index.js';
import { type DatabaseOptions, withEngine } from '../common.js';
import { type Io, print } from '../io.js';

/** `secrets generate-key`: a new key for FEEDBACK_SECRET_KEY. */
export async function generateKey(options: { json?: boolean }, io: Io): Promise<void> {
  const key = generateSecretKey();
  print(io, options.json, { key }, key);
}

/** `secrets rotate`: seal every stored secret under the current key, the last step of a rotation (docs/security.md). */
export async function rotate(options: DatabaseOptions, io: Io): Promise<void> {
  const { keyId, report } = await withEngine(options.db, async (e) => ({
    keyId: e.secretKeyId,
    report: await e.rotateSecrets(),
  }));
  const human =
    `Sealed under key ${keyId}: ${report.webhookSecrets} webhook secrets, ${report.idempotentAnswers} kept Idempotency-Key answers, ${report.portalSecrets} workspaces' portal secrets, ${report.ssoSecrets} single sign-on client secrets, ${report.accountMail} sign-in and invitation messages not sent yet, ${report.integrationCredentials} integrations' credentials.` +
    (report.unopenable > 0
      ? `\n${report.unopenable} values are sealed under a key that is not configured; they were left as they are.`
      : '');
  print(io, options.json, { keyId, ...report }, human);
  if (report.unopenable > 0) io.exitCode = 1;
}
