import { print, withEngine, type DatabaseOptions } from '../common.js';

export interface Options extends DatabaseOptions {
  org: string;
}

export interface RotateOptions extends Options {
  /** Seconds the old secret keeps verifying. */
  grace?: number;
}

export async function create(options: Options): Promise<void> {
  const { secret } = await withEngine(options.db, (e) => e.workspace(options.org).participation.secret.create());
  print(options.json, { secret }, `${secret}\n\nThe portal secret of ${options.org}: keep it on your backend, which signs sign-in tokens with it (HS256). It is not shown again.`);
}

export async function rotate(options: RotateOptions): Promise<void> {
  const result = await withEngine(options.db, (e) => e.workspace(options.org).participation.secret.rotate(options.grace));
  print(
    options.json,
    result,
    `${result.secret}\n\nThe new portal secret of ${options.org}; it is not shown again. ` +
      (result.previousValidUntil ? `The old one keeps verifying until ${result.previousValidUntil}.` : 'The old one no longer verifies.'),
  );
}
