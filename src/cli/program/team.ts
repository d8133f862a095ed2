// team: who may use the console (docs/console.md).

import { type Command, Option } from 'commander';
import { TEAM_ROLES } from '../../schemas/team.js';
import { httpUrl } from '../args.js';
import type * as Team from '../commands/team.js';
import type { Io } from '../io.js';
import { group, leaf } from './build.js';

/** team: who may use the console (docs/console.md). */
export function addTeam(program: Command, io: Io): void {
  const team = group(
    program,
    'team',
    'the people who use the console: add the first owner, list the team, single sign-on (docs/console.md)',
  );
  leaf(team, 'add', "add someone to a workspace's team and print their one-time sign-in link")
    .requiredOption('--org <orgId>', 'the workspace')
    .requiredOption('--email <email>', 'their address (sign-in codes go there)')
    .addOption(
      new Option('--role <role>', 'owner: everything; admin: all but owners; member: triage; viewer: read only')
        .choices(TEAM_ROLES)
        .makeOptionMandatory(),
    )
    .option('--name <name>', 'their name')
    .addOption(
      new Option('--public-url <url>', "the server's address as people reach it, for the link")
        .env('FEEDBACK_PUBLIC_URL')
        .default('http://127.0.0.1:3000')
        .argParser(httpUrl),
    )
    .action(async (options: Team.AddOptions) => (await import('../commands/team.js')).add(options, io));
  leaf(team, 'list', "a workspace's team: role, address, name")
    .requiredOption('--org <orgId>', 'the workspace')
    .action(async (options: Team.ListOptions) => (await import('../commands/team.js')).list(options, io));
  leaf(
    team,
    'sso',
    "set up (or show, or --off) a workspace's single sign-on to the console with an OpenID Connect provider",
  )
    .requiredOption('--org <orgId>', 'the workspace')
    .option('--issuer <url>', "the provider's issuer, like https://accounts.google.com")
    .option('--client-id <id>', 'the client id the provider issued')
    .addOption(new Option('--client-secret <secret>', 'its secret (sealed at rest)').env('FEEDBACK_SSO_CLIENT_SECRET'))
    .option('--domains <list>', 'the email domains whose people sign in this way, comma-separated')
    .option(
      '--verified',
      "with --domains: vouch that those domains are this workspace's, as whoever runs the server (instead of a DNS record; moves a domain from a workspace that held it)",
    )
    .addOption(
      new Option(
        '--require <on|off>',
        'people of the verified domains must sign in to this workspace with it (no mailed codes for them here)',
      ).choices(['on', 'off']),
    )
    .option('--off', 'turn single sign-on off')
    .addOption(
      new Option(
        '--public-url <url>',
        "the server's address as people reach it, for the redirect URI to register (required but with --off)",
      )
        .env('FEEDBACK_PUBLIC_URL')
        .argParser(httpUrl),
    )
    .action(async (options: Team.SsoOptions) => (await import('../commands/team.js')).sso(options, io));
  leaf(
    team,
    'export',
    "a team member's data request: what the console keeps that names the address, in every workspace (JSON)",
  )
    .requiredOption('--email <email>', 'their address')
    .action(async (options: Team.PersonOptions) => (await import('../commands/team.js')).exportPerson(options, io));
  leaf(
    team,
    'erase',
    'erase a team member everywhere: off every team, a pseudonym where the audit log and notes name them',
  )
    .requiredOption('--email <email>', 'their address')
    .action(async (options: Team.PersonOptions) => (await import('../commands/team.js')).erasePerson(options, io));
}
