import { pino, type Logger as PinoLogger } from 'pino';
import { UsageError } from './args.js';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/**
 * The server's logger: pino, JSON lines on stderr (stdout carries the command's own output), or pino-pretty's
 * colored lines when stderr is a terminal. Level from `--log-level`, else `LOG_LEVEL`, else `info`.
 */
export function createServerLogger(flag: string | undefined): PinoLogger {
  const level = flag ?? process.env.LOG_LEVEL ?? 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(level)) throw new UsageError(`--log-level must be one of ${LOG_LEVELS.join(', ')}`);
  const options = { level, base: { service: 'feedback-service', pid: process.pid }, timestamp: pino.stdTimeFunctions.isoTime };
  if (process.stderr.isTTY) {
    return pino(options, pino.transport({ target: 'pino-pretty', options: { destination: 2, ignore: 'pid,service', translateTime: 'SYS:HH:MM:ss.l' } }));
  }
  return pino(options, pino.destination({ dest: 2, sync: false }));
}
