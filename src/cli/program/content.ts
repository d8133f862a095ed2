// contact, company, board, post, changelog, portal-secret and secrets: a person's data requests, content by hand, and the keys the service signs and seals with.

import type { Command } from 'commander';
import { duration } from '../args.js';
import type * as Board from '../commands/board.js';
import type * as Changelog from '../commands/changelog.js';
import type * as Company from '../commands/company.js';
import type * as Contact from '../commands/contact.js';
import type * as Import from '../commands/import.js';
import type * as PortalSecret from '../commands/portal-secret.js';
import type * as Post from '../commands/post.js';
import type { Io } from '../io.js';
import { group, leaf } from './build.js';

/** contact and company: a person's data requests, and the accounts people belong to. */
export function addPeople(program: Command, io: Io): void {
  const contact = group(
    program,
    'contact',
    "answer a person's data requests: everything held about them, or their erasure (docs/privacy.md)",
  );
  leaf(contact, 'export', 'print everything held about a person as one JSON document')
    .argument('<contactId>', 'the contact (ctc_...); other contacts with its address are the same person')
    .requiredOption('--org <orgId>', 'the workspace')
    .option('--out <file>', 'write the document to this file (mode 0600) instead of printing it')
    .action(async (contactId: string, options: Contact.ExportOptions) =>
      (await import('../commands/contact.js')).exportContact(contactId, options, io),
    );
  leaf(
    contact,
    'erase',
    'erase a person: delete their contacts, take them out of votes, comments, posts, mail and events; keep a salted hash of the address',
  )
    .argument('<contactId>', 'the contact (ctc_...); other contacts with its address are erased with it')
    .requiredOption('--org <orgId>', 'the workspace')
    .action(async (contactId: string, options: Contact.EraseOptions) =>
      (await import('../commands/contact.js')).erase(contactId, options, io),
    );

  const company = group(program, 'company', 'read the paying accounts your contacts belong to (docs/api.md)');
  leaf(company, 'list', "a page of a workspace's companies")
    .requiredOption('--org <orgId>', 'the workspace')
    .option('--q <text>', 'only companies whose name or domain holds this text')
    .option('--sort <sort>', 'created (newest first) or mrr (highest revenue first)')
    .option('--limit <n>', 'how many (1 to 100; 25)')
    .option('--cursor <cursor>', "where the page starts: the previous page's next cursor")
    .action(async (options: Company.ListOptions) => (await import('../commands/company.js')).list(options, io));
  leaf(company, 'get', 'one company, with how many people belong to it')
    .argument('<companyId>', 'the company (com_...)')
    .requiredOption('--org <orgId>', 'the workspace')
    .action(async (companyId: string, options: Company.GetOptions) =>
      (await import('../commands/company.js')).get(companyId, options, io),
    );
}

/** board, post and changelog: content by hand; import: a team's history from the tool it leaves. */
export function addContent(program: Command, io: Io): void {
  const imports = group(program, 'import', "bring a team's history in from Canny or Fider (docs/cli.md#import)");
  for (const source of ['canny', 'fider'] as const) {
    const command = leaf(
      imports,
      `${source} <dir>`,
      `import boards, posts, statuses, votes, comments, tags${source === 'canny' ? ', changelog entries, companies' : ''} and people from ${source === 'canny' ? "Canny's API responses (or its posts CSV export)" : "Fider's API responses"} saved in DIR; a rerun adds only what is new`,
    )
      .requiredOption('--org <orgId>', 'the workspace')
      .option('--dry-run', 'count what would be imported, and write nothing');
    if (source === 'fider') command.option('--board <name>', 'the board its posts go to (Fider has none)', 'Feedback');
    else command.option('--currency <code>', "the currency of its companies' monthly spend (Canny names none)", 'USD');
    command.action(async (dir: string, options: Import.ImportOptions) =>
      (await import('../commands/import.js')).importExport(source, dir, options, io),
    );
  }

  const board = group(program, 'board', 'create and list boards');
  leaf(board, 'create', 'create a board')
    .requiredOption('--org <orgId>', 'the workspace')
    .requiredOption('--name <name>', 'its name (the slug is made from it)')
    .option(
      '--description <text>',
      'what the board is for (the portal shows it under the name; at most 500 characters)',
    )
    .option('--private', 'visible only with a key, not on the portal')
    .action(async (options: Board.CreateOptions) => (await import('../commands/board.js')).create(options, io));
  leaf(board, 'list', "a workspace's boards")
    .requiredOption('--org <orgId>', 'the workspace')
    .action(async (options: Board.ListOptions) => (await import('../commands/board.js')).list(options, io));

  const post = group(program, 'post', 'create, merge and moderate posts by hand');
  leaf(post, 'create', 'create a post on a board')
    .requiredOption('--org <orgId>', 'the workspace')
    .requiredOption('--board <boardId>', 'the board')
    .requiredOption('--title <title>', 'its title')
    .option('--body-text <text>', 'its body, as plain text')
    .option('--contact <contactId>', 'its author')
    .action(async (options: Post.CreateOptions) => (await import('../commands/post.js')).create(options, io));
  leaf(post, 'merge', "merge a duplicate into another post: its page points there, and it leaves the portal's lists")
    .argument('<postId>', 'the duplicate')
    .requiredOption('--into <postId>', 'the post it duplicates')
    .requiredOption('--org <orgId>', 'the workspace')
    .action(async (postId: string, options: Post.MergeOptions) =>
      (await import('../commands/post.js')).merge(postId, options, io),
    );
  leaf(post, 'pending', 'the posts waiting for moderation, oldest first')
    .requiredOption('--org <orgId>', 'the workspace')
    .action(async (options: Post.PendingOptions) => (await import('../commands/post.js')).pending(options, io));
  leaf(post, 'approve', 'put a post waiting for moderation on the portal (and emit its post.created)')
    .argument('<postId>', 'the post')
    .requiredOption('--org <orgId>', 'the workspace')
    .action(async (postId: string, options: Post.ModerateOptions) =>
      (await import('../commands/post.js')).moderate(postId, 'approved', options, io),
    );
  leaf(post, 'spam', 'keep a post waiting for moderation off the portal, as spam')
    .argument('<postId>', 'the post')
    .requiredOption('--org <orgId>', 'the workspace')
    .action(async (postId: string, options: Post.ModerateOptions) =>
      (await import('../commands/post.js')).moderate(postId, 'spam', options, io),
    );

  const changelog = group(program, 'changelog', 'write and publish changelog entries');
  leaf(changelog, 'create', 'create a draft entry')
    .requiredOption('--org <orgId>', 'the workspace')
    .requiredOption('--board <boardId>', 'the board it belongs to')
    .requiredOption('--title <title>', 'its title')
    .option('--body <text>', 'its body')
    .action(async (options: Changelog.CreateOptions) => (await import('../commands/changelog.js')).create(options, io));
  leaf(changelog, 'publish', 'publish a draft entry')
    .argument('<entryId>', 'the entry')
    .requiredOption('--org <orgId>', 'the workspace')
    .action(async (entryId: string, options: Changelog.PublishOptions) =>
      (await import('../commands/changelog.js')).publish(entryId, options, io),
    );
}

/** portal-secret and secrets: the keys the service signs and seals with. */
export function addSecrets(program: Command, io: Io): void {
  const portalSecret = group(
    program,
    'portal-secret',
    'the secret your backend signs portal sign-in tokens with (docs/portal.md)',
  );
  leaf(portalSecret, 'create', "create the workspace's first portal secret; it is printed only this once")
    .requiredOption('--org <orgId>', 'the workspace')
    .action(async (options: PortalSecret.Options) =>
      (await import('../commands/portal-secret.js')).create(options, io),
    );
  leaf(portalSecret, 'rotate', 'replace the portal secret; the old one keeps verifying for the grace period')
    .requiredOption('--org <orgId>', 'the workspace')
    .option(
      '--grace <duration>',
      'how long the old secret keeps verifying: 0, or e.g. 90s, 30m, 24h, 7d (default: 24h)',
      duration,
    )
    .action(async (options: PortalSecret.RotateOptions) =>
      (await import('../commands/portal-secret.js')).rotate(options, io),
    );

  const secrets = group(program, 'secrets', 'the key that seals webhook secrets at rest (docs/security.md)');
  leaf(secrets, 'generate-key', 'print a new key for FEEDBACK_SECRET_KEY', 'no-db').action(
    async (options: { json?: boolean }) => (await import('../commands/secrets.js')).generateKey(options, io),
  );
  leaf(secrets, 'rotate', 'seal every stored secret under the current key (the last step of a rotation)').action(
    async (options: { db: string; json?: boolean }) => (await import('../commands/secrets.js')).rotate(options, io),
  );
}
