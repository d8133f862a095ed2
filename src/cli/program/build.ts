// The two kinds of command the program is made of, and which of them open no database.
import type { Command } from 'commander';

/** Commands that do not open the database: they take no --db. */
export const withoutDatabase = new WeakSet<Command>();

/** A command that does one thing. It is given --db (unless `opens` is 'no-db') and --json after its own options. */
export function leaf(parent: Command, nameAndArgs: string, description: string, opens: 'db' | 'no-db' = 'db'): Command {
  const command = parent.command(nameAndArgs).description(description);
  if (opens === 'no-db') withoutDatabase.add(command);
  return command;
}

/** A command that only groups subcommands. */
export const group = (program: Command, name: string, description: string) =>
  program.command(name).description(description);
