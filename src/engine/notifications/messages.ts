import { POST_STATUS_LABELS, type PostStatus } from '../../schemas/posts.js';
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
}

const label = (status: string) => POST_STATUS_LABELS[status as PostStatus] ?? status;
const quoted = (title: string) => `“${title}”`;

/** One item: its headline, its lines, its link; a changelog entry also its rendered body and its posts. */
interface Item {
  headline: string;
  lines: string[];
  link: { href: string; label: string } | null;
  /** What the HTML part shows instead of the lines (a changelog entry: its Markdown rendered, its posts linked). */
  rich?: SafeHtml;
}

/** A changelog entry as the mail says it: its title, why the person gets it, its whole text, the posts it ships. */
function changelogItem(p: Extract<MailPayload, { kind: 'changelog' }>, ctx: MessageContext): Item {
  const body = ctx.changelogBody?.(p.entry.id) ?? p.entry.excerpt;
  const why = p.forPost
    ? `${quoted(p.forPost.title)}, which you took part in or follow, ships with this update.`
    : null;
  const ships = p.ships ?? [];
  const shipLine = (s: PostRef) => `- ${quoted(s.title)}${ctx.postUrl(s) ? `: ${ctx.postUrl(s)}` : ''}`;
  const lines = [
    p.entry.title,
    ...(why ? [why] : []),
    ...(body ? [body] : []),
    ...(ships.length ? [`It ships:\n${ships.map(shipLine).join('\n')}`] : []),
  ];
  const rich = html`${heading(p.entry.title)}${why ? para(why) : ''}${body ? html.raw`${inlineMarkdownStyles(String(markdown(body)))}` : ''}${
    ships.length
      ? html`<p style="margin:16px 0 6px;font-weight:600">It ships</p><ul style="margin:0 0 12px;padding-left:20px">${ships.map(
          (s) => html`<li>${ctx.postUrl(s) ? html`<a href="${ctx.postUrl(s)!}">${s.title}</a>` : s.title}</li>`,
        )}</ul>`
      : ''
  }`;
  return {
    headline: p.forPost
      ? `${quoted(p.forPost.title)} shipped: ${p.entry.title}`
      : `New in ${ctx.workspace}: ${p.entry.title}`,
    lines,
    link: ctx.changelogUrl ? { href: ctx.changelogUrl, label: 'Read the changelog' } : null,
    rich,
  };
}

function item(p: MailPayload, ctx: MessageContext): Item {
  switch (p.kind) {
    case 'post_status': {
      const href = ctx.postUrl(p.post);
      if (p.mergedInto) {
        return {
          headline: `${quoted(p.post.title)} was merged into ${quoted(p.mergedInto.title)}`,
          lines: [
            `${quoted(p.post.title)} is a duplicate of ${quoted(p.mergedInto.title)}: its votes and news continue there.`,
          ],
          link: ctx.postUrl(p.mergedInto) ? { href: ctx.postUrl(p.mergedInto)!, label: 'See the post' } : null,
        };
      }
      return {
        headline: `${quoted(p.post.title)} is now ${label(p.to)}`,
        lines: [
          `${quoted(p.post.title)} moved from ${label(p.from)} to ${label(p.to)}.`,
          ...(p.note ? [`The ${ctx.workspace} team wrote:`, p.note] : []),
        ],
        link: href ? { href, label: 'See the post' } : null,
      };
    }
    case 'reply': {
      const who = p.comment.authorName ?? 'Someone';
      const href = ctx.postUrl(p.post);
      return {
        headline:
          p.replyTo === 'comment'
            ? `${who} replied to your comment on ${quoted(p.post.title)}`
            : `New comment on ${quoted(p.post.title)}`,
        lines: [`${who} wrote:`, p.comment.excerpt],
        link: href ? { href: `${href}#${p.comment.id}`, label: 'Read and reply' } : null,
      };
    }
    case 'changelog':
      return changelogItem(p, ctx);
    case 'webhook_disabled':
      return {
        headline: `Webhook disabled after ${p.failures} failed deliveries: ${p.webhook.url}`,
        lines: [
          `The webhook ${p.webhook.id} (${p.webhook.url}) of ${ctx.workspace} was disabled after ${p.failures} consecutive failed delivery attempts.`,
          'Its pending deliveries were ended as failed (reason webhook_disabled).',
          `Once the receiver works again, re-enable it with PATCH /v1/webhooks/${p.webhook.id} {"enabled": true}, and replay the deliveries you need with POST /v1/webhooks/${p.webhook.id}/deliveries/{deliveryId}/replay.`,
        ],
        link: null,
      };
  }
}

/** Why the person gets this, in one line. */
function reason(items: readonly MailPayload[], workspace: string): string {
  const kinds = new Set(items.map((p) => p.kind));
  if (kinds.has('webhook_disabled') && kinds.size === 1)
    return `You get this because you are an admin of ${workspace}.`;
  if (kinds.size > 1)
    return `You get this digest because of your activity on ${workspace}'s feedback boards and what you asked to hear about.`;
  if (kinds.has('changelog') && items.some((p) => p.kind === 'changelog' && p.forPost))
    return `You get this because you took part in a post this update ships on ${workspace}'s feedback board or asked to hear about it.`;
  if (kinds.has('changelog')) return `You get this because you subscribed to ${workspace}'s changelog.`;
  if (kinds.has('reply'))
    return `You get this because someone answered what you wrote on ${workspace}'s feedback board.`;
  return `You get this because you took part in this post on ${workspace}'s feedback board or asked to hear about it.`;
}

/** The words of one message: one item, or a digest of several. Plain text, and the same as HTML. */
export function renderMail(items: readonly MailPayload[], ctx: MessageContext): RenderedMail {
  const parts = items.map((p) => item(p, ctx));
  const subject = parts.length === 1 ? parts[0]!.headline : `${parts.length} updates from ${ctx.workspace}`;
  const footer = [
    // The signature separator (RFC 3676): mail clients set what follows apart.
    '-- ',
    reason(items, ctx.workspace),
    ...(ctx.preferencesUrl ? [`Choose what you get: ${ctx.preferencesUrl}`] : []),
    ...(ctx.unsubscribeUrl ? [`Unsubscribe from all ${ctx.workspace} email: ${ctx.unsubscribeUrl}`] : []),
  ];
  const textItems = parts.map((part) =>
    [
      ...(parts.length > 1 ? [part.headline, ''] : []),
      ...part.lines,
      ...(part.link ? ['', `${part.link.label}: ${part.link.href}`] : []),
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
  const footerHtml = html`${reason(items, ctx.workspace)}${ctx.preferencesUrl ? html`<br><a href="${ctx.preferencesUrl}" style="color:#525a66">Choose what you get</a>` : ''}${
    ctx.unsubscribeUrl ? html` · <a href="${ctx.unsubscribeUrl}" style="color:#525a66">Unsubscribe</a>` : ''
  }`;
  const body = mailLayout({
    brand,
    title: subject,
    preheader: parts[0]!.lines.find((l) => l !== parts[0]!.headline) ?? subject,
    content: html`${htmlItems}`,
    footer: footerHtml,
  });
  return { subject, text, html: body };
}
