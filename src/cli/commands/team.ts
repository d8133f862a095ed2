import {
  CLI_ACTOR,
  CONSOLE_PATH,
  FeedbackError,
  SSO_CALLBACK_PATH,
  type SsoDomainState,
  type TeamRole,
} from '../../engine/index.js';
import { type DatabaseOptions, withEngine } from '../common.js';
import { type Io, print } from '../io.js';

export interface AddOptions extends DatabaseOptions {
  org: string;
  email: string;
  role: TeamRole;
  name?: string;
  publicUrl: string;
}

/** Add a team member (the first owner, typically) and print their one-time sign-in link. */
export async function add(options: AddOptions, io: Io): Promise<void> {
  const result = await withEngine(
    options.db,
    async (e) => {
      const org = await e.organizations.get(options.org);
      if (!org)
        throw new FeedbackError('ERR_NOT_FOUND', `No workspace ${options.org} (feedback-service org list shows them).`);
      return e
        .workspace(org.id)
        .team.add(
          CLI_ACTOR,
          { email: options.email, role: options.role, name: options.name ?? null },
          { invite: false, workspace: org.name },
        );
    },
    options.publicUrl,
  );
  const { member, signIn } = result;
  print(
    io,
    options.json,
    { member, signInLink: signIn.link, expiresAt: signIn.expiresAt.toISOString() },
    `${member.email} is on the team as ${member.role}. Their one-time sign-in link (it works once, until ${signIn.expiresAt.toISOString()}):\n\n  ${signIn.link}\n\nAfter that, they sign in at ${options.publicUrl.replace(/\/+$/, '')}/console/ with a code mailed to them.`,
  );
}

export interface ListOptions extends DatabaseOptions {
  org: string;
}

export async function list(options: ListOptions, io: Io): Promise<void> {
  const members = await withEngine(options.db, (e) => e.workspace(options.org).team.list());
  print(
    io,
    options.json,
    { data: members },
    members
      .map(
        (m) =>
          `${m.role.padEnd(7)} ${m.email}${m.name ? ` (${m.name})` : ''}${m.joinedAt ? '' : '  invited, not signed in yet'}`,
      )
      .join('\n') || 'No one is on the team yet.',
  );
}

export interface SsoOptions extends DatabaseOptions {
  org: string;
  issuer?: string;
  clientId?: string;
  clientSecret?: string;
  domains?: string;
  verified?: boolean;
  require?: 'on' | 'off';
  off?: boolean;
  /** This server's address as people reach it: the redirect URI is under it. Required but with `off`. */
  publicUrl?: string;
}

/** Set up, show or turn off a workspace's single sign-on; prints the callback to register at the provider. */
export async function sso(options: SsoOptions, io: Io): Promise<void> {
  // The redirect URI the provider is given must be the address people reach, never a guess (a local one would
  // be registered and then fail for everyone): without it, nothing is changed and the command says what to pass.
  if (!options.publicUrl && !options.off)
    throw new FeedbackError(
      'ERR_VALIDATION',
      "Single sign-on needs this server's public address for the redirect URI the provider calls back: pass --public-url https://feedback.example.com (or set FEEDBACK_PUBLIC_URL).",
    );
  const base = (options.publicUrl ?? '').replace(/\/+$/, '');
  const callback = `${base}${SSO_CALLBACK_PATH}`;
  const settings = await withEngine(options.db, async (e) => {
    if (!(await e.organizations.get(options.org)))
      throw new FeedbackError('ERR_NOT_FOUND', `No workspace ${options.org} (feedback-service org list shows them).`);
    const team = e.workspace(options.org).team;
    if (options.off) return (await team.removeSso(CLI_ACTOR)) && null;
    const domains = (options.domains ?? '').split(',');
    if (
      options.issuer !== undefined ||
      options.clientId !== undefined ||
      (options.domains !== undefined && !options.verified)
    ) {
      await team.configureSso(CLI_ACTOR, {
        issuer: options.issuer ?? '',
        clientId: options.clientId ?? '',
        clientSecret: options.clientSecret ?? '',
        allowedDomains: domains,
      });
    }
    // The operator's attestation that the domains are this workspace's (instead of a DNS record).
    if (options.verified) {
      if (options.domains === undefined)
        throw new FeedbackError('ERR_VALIDATION', 'Name the domains you vouch for with --domains.');
      await team.attestDomains(CLI_ACTOR, domains);
    }
    if (options.require) await team.requireSso(CLI_ACTOR, options.require === 'on');
    return team.sso();
  });
  const signInPage = `${base}${CONSOLE_PATH}/${options.org}/sign-in`;
  const domainLine = (d: SsoDomainState) =>
    d.verified
      ? `  ${d.domain}: verified (${d.verifiedBy === 'operator' ? "the operator's word" : 'DNS'})`
      : `  ${d.domain}: not verified. Add a TXT record ${d.record.name} with the value ${d.record.value}, then check it on the console's settings page (or vouch for it: --domains ${d.domain} --verified)`;
  print(
    io,
    options.json,
    { sso: settings, callback, signInPage },
    settings
      ? [
          `Single sign-on: ${settings.issuer} (client ${settings.clientId})${settings.required ? ', required for the addresses of its verified domains' : ''}. Domains:`,
          ...settings.domains.map(domainLine),
          `The workspace's own sign-in page (single sign-on works there for every domain above, verified or not): ${signInPage}`,
          `Register this redirect URI at the provider: ${callback}`,
        ].join('\n')
      : 'Single sign-on is off for this workspace.',
  );
}

export interface PersonOptions extends DatabaseOptions {
  email: string;
}

/** Everything the console keeps that names a team member, as JSON (whatever --json says: it is the export). */
export async function exportPerson(options: PersonOptions, io: Io): Promise<void> {
  const data = await withEngine(options.db, (e) => e.team.exportPerson(options.email));
  print(io, true, data, '');
}

export async function erasePerson(options: PersonOptions, io: Io): Promise<void> {
  const r = await withEngine(options.db, (e) => e.team.erasePerson(options.email));
  print(
    io,
    options.json,
    r,
    `${r.email} is erased: off ${r.teams} ${r.teams === 1 ? 'team' : 'teams'}; ${r.auditEntries} audit entries and ${r.internalNotes} notes now name ${r.alias}; ${r.officialReplies} official replies unsigned.`,
  );
}
