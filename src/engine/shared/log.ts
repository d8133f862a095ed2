/** One line for a log: the error's stack (or message) with its line breaks folded, so one failure is one line. */
export function errorLine(error: unknown): string {
  const text = error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
  return text.replace(/\s*\n\s*/g, ' | ');
}

/** The default report of a failure: `message: error` as one line on stderr. */
export function logErrorLine(message: string, error?: unknown): void {
  console.error(error === undefined ? message : `${message}: ${errorLine(error)}`);
}

/**
 * A structured logger: pino's shape (`logger.info({ fields }, 'message')`), so a pino logger is one. The server
 * passes one; the engine and the h3 app write to it when given.
 */
export interface Logger {
  error(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  info(fields: object, message: string): void;
  debug(fields: object, message: string): void;
}

/** The engine's `log(message, error?)` channel onto a structured logger: with an error at `error`, else at `warn`. */
export function logToLogger(logger: Logger): (message: string, error?: unknown) => void {
  return (message, error) => {
    const text = message.replace(/^\[feedback-service\] /, '');
    if (error === undefined) logger.warn({}, text);
    else logger.error({ err: error }, text);
  };
}
