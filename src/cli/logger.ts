import { type Logger as PinoLogger, pino } from 'pino';
import type { LogLevel } from './args.js';

/**
 * The server's logger: pino, JSON lines on stderr (stdout carries the command's own output), or pino-pretty's
 * colored lines when stderr is a terminal. The level comes checked from the command line (`--log-level`, else
 * `LOG_LEVEL`, else `info`).
 */
export function createServerLogger(level: LogLevel): PinoLogger {
  const options = {
    level,
    base: { service: 'feedback-service', pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  if (process.stderr.isTTY) {
    return pino(
      options,
      pino.transport({
        target: 'pino-pretty',
        options: { destination: 2, ignore: 'pid,service', translateTime: 'SYS:HH:MM:ss.l' },
      }),
    );
  }
  return pino(options, pino.destination({ dest: 2, sync: false }));
}
