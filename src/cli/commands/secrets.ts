import { UsageError, parseFlags, subcommandError } from '../args.js';
import { DB_FLAG, print, withEngine } from '../common.js';
import { generateSecretKey } from '../../engine/index.js';

/**
 * `secrets generate-key` prints a new key for FEEDBACK_SECRET_KEY; `secrets rotate` seals every stored secret under
 * the current key, the last step of a rotation (docs/security.md).
 */
export async function run([sub, ...rest]: string[]): Promise<void> {
  const { values } = parseFlags(rest, DB_FLAG);
  if (sub === 'generate-key') {
    const key = generateSecretKey();
    print(values.json, { key }, key);
    return;
  }
  if (sub === 'rotate') {
    const { keyId, report } = await withEngine(values.db, async (e) => ({ keyId: e.secretKeyId, report: await e.rotateSecrets() }));
    const human =
      `Sealed under key ${keyId}: ${report.webhookSecrets} webhook secrets, ${report.idempotentAnswers} kept Idempotency-Key answers.` +
      (report.unopenable > 0 ? `\n${report.unopenable} values are sealed under a key that is not configured; they were left as they are.` : '');
    print(values.json, { keyId, ...report }, human);
    if (report.unopenable > 0) process.exitCode = 1;
    return;
  }
  throw subcommandError('secrets', sub, ['generate-key', 'rotate']);
}
