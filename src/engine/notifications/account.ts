// Mail a person asked for (a sign-in code) or is sent by the team (an invitation): written to the outbox in the
// transaction of the request, sent by the scheduler's mail lane like every other message. Unlike a notification it is
// one message per row (never in a digest), it has no unsubscribe (nobody is mailed who did not ask, or was not invited),
// and its secret (a code, a link's token) is sealed in the row: the tables keep sign-ins as digests only, and the
// outbox must not be the place a database reader finds a working code.

import { isLocale, type Translator, translator } from '../i18n/index.js';
import { type SecretBox, sealedAt } from '../secrets/index.js';
import { hashEmail, html, newId } from '../shared/index.js';
import { mail, type Sql } from '../store/index.js';
import { codeBlock, heading, mailButton, mailLayout, para } from './layout.js';

/** What an account message says, as sealed in its row. Times are ISO strings. */
export type AccountMail =
  /**
   * A console sign-in: its code (null while codes for the address are paused after too many wrong ones: the link alone
   * then) and its link (null without a public address). Sent only if the address is on a team when it goes out.
   */
  | { kind: 'team_sign_in'; code: string | null; link: string | null; requestedAt: string; expiresAt: string }
  /** An invitation to a workspace's team, with a one-time sign-in link and the console's sign-in page (null without a public address). */
  | {
      kind: 'team_invitation';
      workspace: string;
      invitedBy: string;
      role: string;
      link: string | null;
      consoleUrl: string | null;
      invitedAt: string;
      expiresAt: string;
    }
  /** A code that confirms an address on a workspace's portal. */
  | {
      kind: 'portal_code';
      workspace: string;
      /** The language of the page that asked for it (absent in rows written before languages: English). */
      locale?: string;
      code: string;
      requestedAt: string;
      expiresAt: string;
    };

export const ACCOUNT_MAIL_KINDS: ReadonlySet<string> = new Set<AccountMail['kind']>([
  'team_sign_in',
  'team_invitation',
  'portal_code',
]);

/**
 * Queue an account message in the caller's transaction: due now, its payload sealed to its row. `about` is what it
 * answers (the sign-in's or code's id); `organizationId` is null for the console's sign-ins, which are no workspace's.
 */
export async function queueAccountMail(
  tx: Sql,
  secrets: SecretBox,
  input: { organizationId: string | null; about: string; email: string; now: Date; payload: AccountMail },
): Promise<void> {
  const id = newId('mail', input.now.getTime());
  await mail.insertMany(tx, [
    {
      id,
      organizationId: input.organizationId,
      changeId: input.about,
      kind: input.payload.kind,
      contactId: null,
      email: input.email,
      emailHash: hashEmail(input.email)!,
      payload: secrets.seal(JSON.stringify(input.payload), sealedAt.accountMail(id)),
      dueAt: input.now,
      createdAt: input.now,
    },
  ]);
}

/** An account message's payload, opened. */
export const openAccountMail = (secrets: SecretBox, rowId: string, payload: string): AccountMail =>
  JSON.parse(secrets.open(payload, sealedAt.accountMail(rowId))) as AccountMail;

/** A time as people read it in mail: `27 Nov 2026, 16:05 UTC`. */
const when = (iso: string) =>
  `${new Date(iso).toLocaleString('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hour12: false })} UTC`;
/** How long what a message carries works, from when it was made, in whole units of `ms`. */
const lifetime = (from: string, to: string, ms: number) =>
  Math.max(1, Math.round((Date.parse(to) - Date.parse(from)) / ms));

/** The words of an account message: subject, plain text and the same as HTML; `from` is its sender's display name. */
export function renderAccountMail(
  m: AccountMail,
  email: string,
  branding: { logoUrl: string | null; accent: string | null } | null = null,
): { subject: string; text: string; html: string; from: string; locale: string } {
  let subject: string;
  let lines: string[];
  let from: string;
  let link: { href: string; label: string } | null = null;
  // The console's mail is English; a portal code speaks the language of the page that asked.
  let lang: Translator = translator();
  switch (m.kind) {
    case 'team_sign_in': {
      const t = lang.t;
      link = m.link ? { href: m.link, label: t('console.mail.signIn') } : null;
      from = t('console.mail.from');
      subject = m.code ? t('console.mail.codeSubject', { code: m.code }) : t('console.mail.linkSubject');
      lines = [
        t('console.mail.asked', { email, when: when(m.requestedAt) }),
        m.code ? t('console.mail.code', { code: m.code, link: link ? 'yes' : 'no' }) : t('console.mail.paused'),
        t('console.mail.works', {
          minutes: lifetime(m.requestedAt, m.expiresAt, 60_000),
          code: m.code ? 'yes' : 'no',
        }),
      ];
      break;
    }
    case 'team_invitation': {
      const t = lang.t;
      const workspace = m.workspace;
      link = m.link ? { href: m.link, label: t('console.mail.join', { workspace }) } : null;
      from = workspace;
      subject = t('console.mail.invited', { workspace });
      lines = [
        t('console.mail.added', { by: m.invitedBy, workspace, role: m.role }),
        link
          ? t('console.mail.openLink', {
              days: lifetime(m.invitedAt, m.expiresAt, 86_400_000),
              url: m.consoleUrl ?? 'none',
            })
          : t('console.mail.signInPage'),
      ];
      break;
    }
    case 'portal_code': {
      const tr = translator(isLocale(m.locale) ? m.locale : undefined);
      const { workspace, code } = m;
      from = workspace;
      lang = tr;
      subject = tr.t('mail.codeSubject', { code, workspace });
      lines = [
        tr.t('mail.codeAsked', { workspace, email, when: tr.exactTime(m.requestedAt) }),
        tr.t('mail.codeEnter', { code, minutes: lifetime(m.requestedAt, m.expiresAt, 60_000) }),
        tr.t('mail.codeIgnore'),
      ];
      break;
    }
  }
  const text = [...lines.flatMap((line) => [line, '']), ...(link ? [`${link.label}: ${link.href}`, ''] : [])].join(
    '\n',
  );
  const brand = { name: from, logoUrl: branding?.logoUrl ?? null, accent: branding?.accent ?? null };
  const code = m.kind === 'team_invitation' ? null : m.code;
  const body = mailLayout({
    brand,
    title: subject,
    preheader: lines[0]!,
    content: html`${heading(subject)}${code ? codeBlock(code) : ''}${lines.map(para)}${link ? mailButton(brand, link) : ''}`,
    footer:
      m.kind === 'portal_code' ? lang.t('mail.codeFooter', { workspace: m.workspace }) : lang.t('console.mail.footer'),
    lang,
  });
  return { subject, text, html: body, from, locale: lang.locale };
}
