/**
 * Where a command's words go: the process's stdout and stderr when it runs as `feedback-service`, a buffer when a
 * test runs the program in-process. A command that finished but must report failure (exit 1 after printing its
 * report, as `secrets rotate` does) sets `exitCode`.
 */
export interface Io {
  out(text: string): void;
  err(text: string): void;
  exitCode?: number;
  /** `err` is a terminal: a progress bar may redraw its line there. */
  errIsTerminal?: boolean;
}

/** The process's own streams. */
export function processIo(): Io {
  return {
    out: (text) => void process.stdout.write(text),
    err: (text) => void process.stderr.write(text),
    errIsTerminal: process.stderr.isTTY === true,
  };
}

/** One JSON object with `--json`, else the sentence for people; a line each. */
export function print(io: Io, json: boolean | undefined, value: Record<string, unknown>, human: string): void {
  io.out(`${json ? JSON.stringify(value) : human}\n`);
}
