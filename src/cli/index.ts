#!/usr/bin/env node
// The `feedback-service` command: the program (program.ts) on this process's arguments and streams. A command that
// keeps running (serve, mcp) keeps the process alive; the others end it with their exit code.
import { run } from './program.js';

const code = await run(process.argv.slice(2));
if (code !== 0) process.exit(code);
