import { nearestLocale, translator, type Wording } from '../i18n/index.js';
import type { OutgoingMail } from '../mail/index.js';
import {
  ACCOUNT_MAIL_KINDS,
  type AccountMail,
  type MailPayload,
  type MailTokens,
  openAccountMail,
  type PostRef,
  renderAccountMail,
  renderMail,
} from '../notifications/index.js';
import type { SecretBox } from '../secrets/index.js';
import { MAIL_PAGES, pathsOf } from '../shared/index.js';
import { boards, changelogEntries, contacts, organizations, type Sql, teamMembers } from '../store/index.js';

/** One message the mail lane holds: the due rows of one recipient, claimed together under one lease token. */
export interface HeldMail {
  token: string;
  /** Null for the console's own mail. */
  organizationId: string | null;
  emailHash: string;
  /** The address and contact of the newest row. */
  email: string;
  contactId: string | null;
  rows: Array<{ id: string; kind: string; payload: string; attemptCount: number }>;
}

export interface MailSettings {
  /** Hears, once, that messages go out without links (no public address). */
  log: (message: string) => void;
  /** The sender address (`feedback-service@localhost` by default); the workspace's name is its display name. */
  from: string;
  /** The server's public address (`https://feedback.example.com`), for the links; without one, mail has none. */
  publicUrl: () => string | undefined;
}

/** A message ready to send, with its Message-ID (the first row's id, the same at every attempt). */
export interface ComposedMail extends OutgoingMail {
  messageId: string;
}

/** A held message that is not to be sent after all, and why (its code expired; the address is on no team). */
export interface CancelledMail {
  cancelled: string;
}

/** What composing runs with: the database, the link tokens, the sealing key, the mail settings, and cached reads. */
interface Composing {
  db: Sql;
  tokens: MailTokens;
  secrets: SecretBox;
  settings: MailSettings;
  clock: () => Date;
  domain: string;
  workspaceOf(id: string): Promise<organizations.OrganizationRow | undefined>;
  boardSlugOf(org: string, id: string): Promise<string | null>;
  changelogBodyOf(org: string, id: string): Promise<string | null>;
  /** Said once: notification mail goes without links when the engine has no public address. */
  warnNoLinks(): void;
}

const messageIdOf = (c: Composing, m: HeldMail) => `<${m.rows[0]!.id}@${c.domain}>`;

/** A message in MIME, from `name` at the configured sender, with what the log says of it (`about`). */
async function composed(
  c: Composing,
  m: HeldMail,
  name: string,
  words: { subject: string; text: string; html: string; locale?: string },
  headers: Record<string, string>,
  about: string,
): Promise<ComposedMail> {
  const messageId = messageIdOf(c, m);
  const raw = await mime({
    from: { name, address: c.settings.from },
    to: m.email,
    subject: words.subject,
    text: words.text,
    html: words.html,
    messageId,
    // Not a person writing: vacation responders stay quiet.
    headers: {
      ...headers,
      'Auto-Submitted': 'auto-generated',
      // The message's language (RFC 3282), which readers and screen readers use.
      ...(words.locale ? { 'Content-Language': words.locale } : {}),
    },
  });
  const envelope = { from: c.settings.from, to: m.email };
  return { envelope, raw, subject: words.subject, text: words.text, about, messageId };
}

/**
 * An account message (a sign-in code, an invitation): one row, its payload sealed. Not sent once what it carries no
 * longer works, nor a console sign-in to an address that is on no team (the page that asked answered the same either
 * way: whether mail goes is decided here, after the answer).
 */
async function composeAccount(c: Composing, m: HeldMail): Promise<ComposedMail | CancelledMail> {
  const row = m.rows[0]!;
  const payload = openAccountMail(c.secrets, row.id, row.payload);
  if (new Date(payload.expiresAt) <= c.clock()) return { cancelled: 'expired before it could be sent' };
  if (payload.kind === 'team_sign_in' && (await teamMembers.teamsOf(c.db, m.email)).length === 0)
    return { cancelled: 'not sent: the address is on no team' };
  // A portal code carries its workspace's branding; the console's own mail is the console's.
  const org = m.organizationId ? await c.workspaceOf(m.organizationId) : undefined;
  const words = renderAccountMail(
    payload,
    m.email,
    org ? { logoUrl: org.portalLogoUrl, accent: org.portalAccent } : null,
  );
  return composed(c, m, words.from, words, {}, ACCOUNT_MAIL_ABOUT[payload.kind]);
}

/** The links a notification carries: the portal's pages of its posts (public boards only), and the recipient's own. */
async function linksOf(c: Composing, m: HeldMail, organizationId: string, payloads: MailPayload[]) {
  const org = await c.workspaceOf(organizationId);
  const base = c.settings.publicUrl()?.replace(/\/+$/, '');
  if (!base) c.warnNoLinks();
  const portal = base && org?.handle && org.portalEnabled ? pathsOf(org.handle) : null;
  const boardIds = new Set(
    payloads.flatMap((p) =>
      p.kind === 'changelog' ? [p.entry.boardId] : p.kind === 'webhook_disabled' ? [] : [p.post.boardId],
    ),
  );
  const slugs = new Map<string, string>();
  if (portal)
    for (const id of boardIds) {
      const slug = await c.boardSlugOf(organizationId, id);
      if (slug) slugs.set(id, slug);
    }
  const token =
    base && m.contactId
      ? await c.tokens.sign({ organizationId, contactId: m.contactId, emailHash: m.emailHash })
      : null;
  // The recipient's language: their contact's, else the workspace's; every link keeps it (`lang`).
  // The team's own mail (a webhook disabled, to its admins) is the console's, in English.
  const team = payloads.every((p) => p.kind === 'webhook_disabled');
  // One column of one row: a message is written in its recipient's language.
  const personal = m.contactId && !team ? await contacts.localeOf(c.db, organizationId, m.contactId) : null;
  const tr = team
    ? translator()
    : translator(nearestLocale([personal, org?.locale]) ?? undefined, (org?.portalWording ?? {}) as Wording);
  const lang = `lang=${encodeURIComponent(tr.locale)}`;
  const link = (path: string) => `${base}${path}?t=${token}&${lang}`;
  // A changelog entry's whole body (the payload holds an excerpt; a published entry's text does not change).
  const bodies = new Map<string, string | null>();
  for (const p of payloads)
    if (p.kind === 'changelog' && !bodies.has(p.entry.id))
      bodies.set(p.entry.id, await c.changelogBodyOf(organizationId, p.entry.id));
  return {
    tr,
    workspace: org?.name ?? 'Feedback',
    brand: { name: org?.name ?? 'Feedback', logoUrl: org?.portalLogoUrl ?? null, accent: org?.portalAccent ?? null },
    changelogBody: (id: string) => bodies.get(id) ?? null,
    postUrl: (post: PostRef) =>
      portal && slugs.has(post.boardId) ? `${base}${portal.post(slugs.get(post.boardId)!, post.slug)}?${lang}` : null,
    changelogUrl: portal ? `${base}${portal.changelog}?${lang}` : null,
    preferencesUrl: token ? link(MAIL_PAGES.preferences) : null,
    unsubscribeUrl: token ? link(MAIL_PAGES.unsubscribe) : null,
  };
}

/** A notification (or a digest of several) to one recipient, with RFC 8058's one-click unsubscribe when it has links. */
async function composeNotification(c: Composing, m: HeldMail, organizationId: string): Promise<ComposedMail> {
  const payloads = m.rows.map((r) => JSON.parse(r.payload) as MailPayload);
  const links = await linksOf(c, m, organizationId, payloads);
  const words = renderMail(payloads, links);
  const unsubscribe: Record<string, string> = links.unsubscribeUrl
    ? { 'List-Unsubscribe': `<${links.unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' }
    : {};
  const kinds = [...new Set(payloads.map((p) => p.kind))].join(', ');
  const about = payloads.length === 1 ? kinds : `a digest of ${payloads.length} (${kinds})`;
  return composed(c, m, links.workspace, words, unsubscribe, about);
}

/**
 * Put one held message into words and MIME: the workspace's name and portal links, the recipient's signed
 * preferences and unsubscribe links, and RFC 8058's one-click headers (`List-Unsubscribe` with the https address and
 * `List-Unsubscribe-Post: List-Unsubscribe=One-Click`).
 */
export function createComposer(
  db: Sql,
  tokens: MailTokens,
  secrets: SecretBox,
  settings: MailSettings,
  clock: () => Date,
) {
  // A status change mails its thousand voters about one workspace and one board: read each once a few seconds, not
  // once a message (a renamed workspace shows in mail within that time).
  const cached = createTtlCache(clock, CONTEXT_TTL_MS);
  let warned = false;
  const c: Composing = {
    db,
    tokens,
    secrets,
    settings,
    clock,
    domain: settings.from.includes('@') ? settings.from.slice(settings.from.lastIndexOf('@') + 1) : 'localhost',
    workspaceOf: (id) => cached(`org:${id}`, () => organizations.find(db, id)),
    boardSlugOf: (org, id) =>
      cached(`board:${id}`, async () => ((b) => (b?.isPublic ? b.slug : null))(await boards.find(db, org, id))),
    changelogBodyOf: (org, id) =>
      cached(`entry:${id}`, async () => (await changelogEntries.find(db, org, id))?.body ?? null),
    warnNoLinks() {
      if (warned) return;
      warned = true;
      settings.log(
        '[feedback-service] notification mail goes out without links or a one-click unsubscribe: the engine has no mail.publicUrl (serve --public-url)',
      );
    },
  };
  return function compose(m: HeldMail): Promise<ComposedMail | CancelledMail> {
    if (ACCOUNT_MAIL_KINDS.has(m.rows[0]!.kind) || m.organizationId === null) return composeAccount(c, m);
    return composeNotification(c, m, m.organizationId);
  };
}
export type Composer = ReturnType<typeof createComposer>;

/** What an account message is, as the log says it without SMTP. */
const ACCOUNT_MAIL_ABOUT: Record<AccountMail['kind'], string> = {
  team_sign_in: 'a console sign-in code',
  team_invitation: 'a console invitation',
  portal_code: 'a sign-in code',
};

/** A message's bytes (nodemailer's MailComposer, loaded when mail is first sent). */
async function mime(options: import('nodemailer/lib/mailer/index.js').Options): Promise<Buffer> {
  const { default: MailComposer } = await import('nodemailer/lib/mail-composer');
  return new MailComposer(options).compile().build();
}

/** How long the composer trusts what it read of a workspace and its boards. */
const CONTEXT_TTL_MS = 5000;

/** Values by key, each read once per `ttlMs` (at most 1,000 kept; a read in flight is shared). */
function createTtlCache(clock: () => Date, ttlMs: number) {
  const entries = new Map<string, { at: number; value: Promise<unknown> }>();
  return <T>(key: string, read: () => Promise<T>): Promise<T> => {
    const now = clock().getTime();
    const hit = entries.get(key);
    if (hit && now - hit.at < ttlMs) return hit.value as Promise<T>;
    if (entries.size >= 1000) entries.delete(entries.keys().next().value!);
    const value = read();
    entries.set(key, { at: now, value });
    value.catch(() => entries.delete(key));
    return value;
  };
}
