// org, key and integration: workspaces, their API keys and their connections to Linear, GitHub and Slack.

import { type Command, Option } from 'commander';
import { LOCALES } from '../../schemas/locales.js';
import { BILLING_STATES, PLANS } from '../../schemas/plans.js';
import { contactCap, contactCapOrDefault, rateLimitOrDefault, repeated, wholeNumber } from '../args.js';
import type * as Integration from '../commands/integration.js';
import type * as Key from '../commands/key.js';
import type * as Org from '../commands/org.js';
import type { Io } from '../io.js';
import { group, leaf } from './build.js';

/** org, key and integration: workspaces, their API keys and their connections to Linear, GitHub and Slack. */
export function addWorkspaces(program: Command, io: Io): void {
  const org = group(program, 'org', 'list, create and update workspaces (organizations)');
  leaf(org, 'list', 'every workspace: id, name, plan, billing state, contact cap').action(
    async (options: Org.ListOptions) => (await import('../commands/org.js')).list(options, io),
  );
  leaf(org, 'create', 'create a workspace')
    .requiredOption('--name <name>', 'its name')
    .addOption(new Option('--plan <plan>', 'its plan (default: free)').choices(PLANS))
    .option(
      '--contact-cap <n>',
      "at most this many contacts, or none (default: the plan's: free 1000, paid unlimited)",
      contactCap,
    )
    .option('--admin-email <email>', 'who hears when a webhook is disabled (repeat for several)', repeated)
    .option('--rate-limit <n>', 'requests per minute per key (default: 600)', wholeNumber)
    .action(async (options: Org.CreateOptions) => (await import('../commands/org.js')).create(options, io));
  addOrgUpdate(org, io);

  const key = group(program, 'key', 'list, create and revoke API keys');
  leaf(key, 'list', "a workspace's keys: id, scope, created, revoked, last used (never the key)")
    .requiredOption('--org <orgId>', 'the workspace')
    .action(async (options: Key.ListOptions) => (await import('../commands/key.js')).list(options, io));
  leaf(key, 'create', 'create a key; it is printed only this once')
    .requiredOption('--org <orgId>', 'the workspace')
    .addOption(new Option('--scope <scope>', 'what it may do').choices(['read', 'read:write']).makeOptionMandatory())
    .action(async (options: Key.CreateOptions) => (await import('../commands/key.js')).create(options, io));
  leaf(key, 'revoke', 'revoke a key at once')
    .argument('<keyId>', 'the key (key_...)')
    .action(async (keyId: string, options: Key.RevokeOptions) =>
      (await import('../commands/key.js')).revoke(keyId, options, io),
    );

  const integration = group(
    program,
    'integration',
    "list and remove a workspace's Linear, GitHub and Slack connections",
  );
  leaf(
    integration,
    'list',
    "a workspace's connections: id, service, how it signs in, account, status (never a credential)",
  )
    .requiredOption('--org <orgId>', 'the workspace')
    .action(async (options: Integration.Options) => (await import('../commands/integration.js')).list(options, io));
  leaf(integration, 'remove', 'disconnect a service: its credentials, linked issues and waiting calls go')
    .argument('<integrationId>', 'the connection (int_...)')
    .requiredOption('--org <orgId>', 'the workspace')
    .action(async (integrationId: string, options: Integration.Options) =>
      (await import('../commands/integration.js')).remove(integrationId, options, io),
    );
}

/** org update: every setting of a workspace the command line changes. */
function addOrgUpdate(org: Command, io: Io): void {
  leaf(org, 'update', 'change a workspace')
    .argument('<orgId>', 'the workspace (org_...)')
    .option('--name <name>', 'its name')
    .addOption(new Option('--plan <plan>', 'its plan').choices(PLANS))
    .addOption(new Option('--billing <state>', 'read_only refuses writes').choices(BILLING_STATES))
    .option('--contact-cap <n>', "at most this many contacts, none, or default (the plan's)", contactCapOrDefault)
    .option(
      '--admin-email <email>',
      'who hears when a webhook is disabled (repeat for several; replaces the list)',
      repeated,
    )
    .option('--rate-limit <n>', 'requests per minute per key, or default (600)', rateLimitOrDefault)
    .option(
      '--handle <handle>',
      "the public portal's handle: /portal/<handle>/ (lower-case letters, digits, dashes), or none",
    )
    .addOption(new Option('--portal <state>', 'turn the public portal on or off').choices(['on', 'off']))
    .addOption(
      new Option(
        '--portal-verified-only <state>',
        'on: only users signed in with a token your backend mints may take part',
      ).choices(['on', 'off']),
    )
    .addOption(
      new Option('--portal-moderation <state>', 'on: anonymous portal posts wait for post approve').choices([
        'on',
        'off',
      ]),
    )
    .option(
      '--portal-frame-origin <origin>',
      'a site that may frame the portal (the widget), e.g. https://app.example.com (repeat for several; replaces the list; none clears it)',
      repeated,
    )
    .addOption(
      new Option(
        '--notify-admin-created <state>',
        'on: notifications also go to contacts your admins created (you attest their lawful basis)',
      ).choices(['on', 'off']),
    )
    .option(
      '--search-language <language>',
      'PostgreSQL: the language posts are searched in: simple (the default, any language), english, french, german, ... (docs/search.md); indexes the posts again',
    )
    .option(
      '--search-stems <language>',
      "the language a search's words are forgiven in, their stems also matching: english (the default), french, german, ..., or none (docs/search.md)",
    )
    .option(
      '--search-synonym <group>',
      'words or phrases that find each other, separated by commas ("sso, single sign-on, saml"); repeat for several groups; replaces the list; none clears it',
      repeated,
    )
    .addOption(
      new Option(
        '--locale <locale>',
        "the portal's and its mail's language where the person's own is not known (docs/portal.md)",
      ).choices(LOCALES),
    )
    .option(
      '--wording <locale:key=message>',
      'your own words for one of the portal\'s messages in one language, e.g. de:board.newPost="Idee einreichen"; an empty message removes it; none removes them all (repeat for several; docs/portal.md)',
      repeated,
    )
    .action(async (orgId: string, options: Org.UpdateOptions) =>
      (await import('../commands/org.js')).update(orgId, options, io),
    );
}
