#!/usr/bin/env node
// The `feedback-service` command: the program (program.ts) on this process's arguments and streams. A command that
// keeps running (serve, mcp) keeps the process alive; the others end it with their exit code.
import { run } from './program.js';

// A reader that stops reading (`feedback-service --help | head -1`) closes the pipe: the rest of the output has no
// one to go to, which is no failure of the command. End quietly, as a Unix filter does, instead of an EPIPE stack.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
    throw err;
  });
}

const code = await run(process.argv.slice(2));
if (code !== 0) process.exit(code);
