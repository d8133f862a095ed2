import { POST_STATUSES, type PostStatus } from '../../schemas/posts.js';
import { type Translator, translator } from '../i18n/index.js';
import { html, markdown, type SafeHtml } from '../shared/index.js';
import { heading, inlineMarkdownStyles, type MailBrand, mailButton, mailLayout, para } from './layout.js';

/** A post as a message names it. */
export interface PostRef {
  id: string;
  title: string;
  slug: string;
  boardId: string;
}

/** What one mail row says, as written with the change (the words are chosen when it is sent). */
export type MailPayload =
  /** `note`: what the team wrote with the change (the console's public note), if anything. */
  | { kind: 'post_status'; post: PostRef; from: string; to: string; mergedInto: PostRef | null; note?: string | null }
  | {
      kind: 'reply';
      post: PostRef;
      comment: { id: string; authorName: string | null; excerpt: string };
      replyTo: 'post' | 'comment';
    }
  /** `ships`: the posts the entry ships; `forPost`: the one of them the person takes part in, when that is why they get it. */
  | {
      kind: 'changelog';
      entry: { id: string; title: string; slug: string; boardId: string; excerpt: string };
      ships?: PostRef[];
      forPost?: PostRef;
    }
  /** To the workspace's admins: a webhook was disabled after this many consecutive failures. */
  | { kind: 'webhook_disabled'; webhook: { id: string; url: string }; failures: number };

/** What the words of a message need from the workspace and the server. */
export interface MessageContext {
  /** The recipient's language (their contact's, else the workspace's), with the workspace's own wording. */
  tr?: Translator;
  workspace: string;
  /** The post's page on the portal, absolute; null without a portal or a public URL. */
  postUrl(post: PostRef): string | null;
  changelogUrl: string | null;
  /** The recipient's preferences page and one-click unsubscribe address (absolute, with their token); null without a public URL. */
  preferencesUrl: string | null;
  unsubscribeUrl: string | null;
  /** The workspace's name, logo and accent, as the mail's header and button show them. */
  brand?: MailBrand;
  /** A published changelog entry's whole body (Markdown), read when the mail is written; null if it is gone. */
  changelogBody?: (entryId: string) => string | null;
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
  /** The language it is written in. */
  locale: string;
}

const label = (tr: Translator, status: string) =>
  (POST_STATUSES as readonly string[]).includes(status) ? tr.t(`status.${status as PostStatus}`) : status;

/** One item: its headline, its lines, its link; a changelog entry also its rendered body and its posts. */
interface Item {
  headline: string;
  lines: string[];
  link: { href: string; label: string } | null;
  /** What the HTML part shows instead of the lines (a changelog entry: its Markdown rendered, its posts linked). */
  rich?: SafeHtml;
}

/** A changelog entry as the mail says it: its title, why the person gets it, its whole text, the posts it ships. */
function changelogItem(tr: Translator, p: Extract<MailPayload, { kind: 'changelog' }>, ctx: MessageContext): Item {
  const body = ctx.changelogBody?.(p.entry.id) ?? p.entry.excerpt;
  const why = p.forPost ? tr.t('mail.shipsWhy', { title: p.forPost.title }) : null;
  const ships = p.ships ?? [];
  const shipLine = (s: PostRef) => {
    const url = ctx.postUrl(s);
    return url ? tr.t('mail.shipLine', { title: s.title, url }) : tr.t('mail.shipLineBare', { title: s.title });
  };
  const lines = [
    p.entry.title,
    ...(why ? [why] : []),
    ...(body ? [body] : []),
    ...(ships.length ? [[tr.t('mail.shipsText'), ...ships.map(shipLine)].join('\n')] : []),
  ];
  const rich = html`${heading(p.entry.title)}${why ? para(why) : ''}${body ? html.raw`${inlineMarkdownStyles(String(markdown(body)))}` : ''}${
    ships.length
      ? html`<p style="margin:16px 0 6px;font-weight:600">${tr.t('mail.ships')}</p><ul style="margin:0 0 12px;padding-inline-start:20px">${ships.map(
          (s) => html`<li>${ctx.postUrl(s) ? html`<a href="${ctx.postUrl(s)!}">${s.title}</a>` : s.title}</li>`,
        )}</ul>`
      : ''
  }`;
  return {
    headline: p.forPost
      ? tr.t('mail.shipped', { title: p.forPost.title, entry: p.entry.title })
      : tr.t('mail.newIn', { workspace: ctx.workspace, entry: p.entry.title }),
    lines,
    link: ctx.changelogUrl ? { href: ctx.changelogUrl, label: tr.t('mail.readChangelog') } : null,
    rich,
  };
}

function item(tr: Translator, p: MailPayload, ctx: MessageContext): Item {
  switch (p.kind) {
    case 'post_status': {
      const href = ctx.postUrl(p.post);
      const title = p.post.title;
      if (p.mergedInto) {
        const target = p.mergedInto.title;
        return {
          headline: tr.t('mail.merged', { title, target }),
          lines: [tr.t('mail.mergedText', { title, target })],
          link: ctx.postUrl(p.mergedInto) ? { href: ctx.postUrl(p.mergedInto)!, label: tr.t('mail.seePost') } : null,
        };
      }
      return {
        headline: tr.t('mail.status', { title, status: label(tr, p.to) }),
        lines: [
          tr.t('mail.statusMoved', { title, from: label(tr, p.from), to: label(tr, p.to) }),
          ...(p.note ? [tr.t('mail.teamWrote', { workspace: ctx.workspace }), p.note] : []),
        ],
        link: href ? { href, label: tr.t('mail.seePost') } : null,
      };
    }
    case 'reply': {
      const name = p.comment.authorName ?? tr.t('mail.someone');
      const href = ctx.postUrl(p.post);
      return {
        headline:
          p.replyTo === 'comment'
            ? tr.t('mail.replyToComment', { name, title: p.post.title })
            : tr.t('mail.newComment', { title: p.post.title }),
        lines: [tr.t('mail.wrote', { name }), p.comment.excerpt],
        link: href ? { href: anchored(href, p.comment.id), label: tr.t('mail.readAndReply') } : null,
      };
    }
    case 'changelog':
      return changelogItem(tr, p, ctx);
    case 'webhook_disabled':
      return {
        headline: tr.t('console.mail.webhookDisabled', { failures: p.failures, url: p.webhook.url }),
        lines: [
          tr.t('console.mail.webhookDisabledText', {
            id: p.webhook.id,
            url: p.webhook.url,
            workspace: ctx.workspace,
            failures: p.failures,
          }),
          tr.t('console.mail.webhookEnded'),
          tr.t('console.mail.webhookAgain', { id: p.webhook.id }),
        ],
        link: null,
      };
  }
}

/** A link to a comment on a post's page: the anchor after the address's query (`?lang=de#cmt_…`). */
const anchored = (href: string, id: string) => `${href}#${id}`;

/** Why the person gets this, in one line. */
function reason(tr: Translator, items: readonly MailPayload[], workspace: string): string {
  const kinds = new Set(items.map((p) => p.kind));
  // The team's own mail (an admin's) is the console's, in English.
  if (kinds.has('webhook_disabled') && kinds.size === 1) return tr.t('console.mail.whyAdmin', { workspace });
  if (kinds.size > 1) return tr.t('mail.whyDigest', { workspace });
  if (kinds.has('changelog') && items.some((p) => p.kind === 'changelog' && p.forPost))
    return tr.t('mail.whyShipped', { workspace });
  if (kinds.has('changelog')) return tr.t('mail.whyChangelog', { workspace });
  if (kinds.has('reply')) return tr.t('mail.whyReply', { workspace });
  return tr.t('mail.whyPost', { workspace });
}

/** The words of one message: one item, or a digest of several. Plain text, and the same as HTML. */
export function renderMail(items: readonly MailPayload[], ctx: MessageContext): RenderedMail {
  const tr = ctx.tr ?? translator();
  const parts = items.map((p) => item(tr, p, ctx));
  const subject =
    parts.length === 1 ? parts[0]!.headline : tr.t('mail.digest', { count: parts.length, workspace: ctx.workspace });
  const footer = [
    // The signature separator (RFC 3676): mail clients set what follows apart.
    '-- ',
    reason(tr, items, ctx.workspace),
    ...(ctx.preferencesUrl ? [tr.t('mail.chooseAt', { url: ctx.preferencesUrl })] : []),
    ...(ctx.unsubscribeUrl ? [tr.t('mail.unsubscribeAt', { workspace: ctx.workspace, url: ctx.unsubscribeUrl })] : []),
  ];
  const textItems = parts.map((part) =>
    [
      ...(parts.length > 1 ? [part.headline, ''] : []),
      ...part.lines,
      ...(part.link ? ['', tr.t('mail.linkAt', { label: part.link.label, url: part.link.href })] : []),
    ].join('\n'),
  );
  const text = [...textItems.flatMap((t) => [t, '']), ...footer].join('\n');
  const brand = ctx.brand ?? { name: ctx.workspace, logoUrl: null, accent: null };
  const htmlItems: SafeHtml[] = parts.map(
    (part) =>
      html`<section>${part.rich ?? html`${heading(part.headline, parts.length > 1 ? 17 : 20)}${part.lines.map(para)}`}${
        part.link ? mailButton(brand, part.link) : ''
      }</section>`,
  );
  const footerHtml = html`${reason(tr, items, ctx.workspace)}${ctx.preferencesUrl ? html`<br><a href="${ctx.preferencesUrl}" style="color:#525a66">${tr.t('mail.choose')}</a>` : ''}${
    ctx.unsubscribeUrl
      ? html` · <a href="${ctx.unsubscribeUrl}" style="color:#525a66">${tr.t('mail.unsubscribe')}</a>`
      : ''
  }`;
  const body = mailLayout({
    brand,
    title: subject,
    preheader: parts[0]!.lines.find((l) => l !== parts[0]!.headline) ?? subject,
    content: html`${htmlItems}`,
    footer: footerHtml,
    lang: tr,
  });
  return { subject, text, html: body, locale: tr.locale };
}
