/** One line for a log: the error's stack (or message) with its line breaks folded, so one failure is one line. */
export function errorLine(error: unknown): string {
  const text = error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
  return text.replace(/\s*\n\s*/g, ' | ');
}

/** The default report of a failure: `message: error` as one line on stderr. */
export function logErrorLine(message: string, error?: unknown): void {
  console.error(error === undefined ? message : `${message}: ${errorLine(error)}`);
}
