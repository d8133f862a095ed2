import { type DatabaseOptions, withEngine } from '../common.js';
import { type Io, print } from '../io.js';

export interface Options extends DatabaseOptions {
  org: string;
}

export interface RotateOptions extends Options {
  /** Seconds the old secret keeps verifying. */
  grace?: number;
}

export async function create(options: Options, io: Io): Promise<void> {
  const { secret } = await withEngine(options.db, (e) => e.workspace(options.org).participation.secret.create());
  print(
    io,
    options.json,
    { secret },
    `${secret}\n\nThe portal secret of ${options.org}: keep it on your backend, which signs sign-in tokens with it (HS256). It is not shown again.`,
  );
}

export async function rotate(options: RotateOptions, io: Io): Promise<void> {
  const result = await withEngine(options.db, (e) =>
    e.workspace(options.org).participation.secret.rotate(options.grace),
  );
  print(
    io,
    options.json,
    result,
    `${result.secret}\n\nThe new portal secret of ${options.org}; it is not shown again. ` +
      (result.previousValidUntil
        ? `The old one keeps verifying until ${result.previousValidUntil}.`
        : 'The old one no longer verifies.'),
  );
}
