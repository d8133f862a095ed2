/**
 * Who may be emailed: the spec's consent table, as one function. Every notification the engine writes asks it, for
 * every recipient; a test asks it for every source x basis pair (test/engine/notifications/consent.test.ts). docs/privacy.md shows
 * the same table.
 */

/** Why a message would be sent. */
export const MAIL_PURPOSES = ['post_status', 'reply', 'changelog'] as const;
/**
 * `post_status`: a post the person takes part in (or subscribed to) changed status. `reply`: someone commented on the
 * person's own post, or replied to their comment. `changelog`: a changelog entry was published.
 */
export type MailPurpose = (typeof MAIL_PURPOSES)[number];

/** What the rule needs to know about one message to one person, besides the contact's provenance. */
export interface MailFacts {
  purpose: MailPurpose;
  /** Linked to the post: its author, a voter, a commenter (the row carries their contact id). */
  participant: boolean;
  /**
   * Subscribed to this topic, and by whom: `own` (they ticked notify-me on this post, or subscribed on the portal's
   * preferences page), `workspace` (the workspace's code subscribed them through the engine), or null.
   */
  subscribed: 'own' | 'workspace' | null;
  /** For a reply: it answers the person's own post or comment. */
  ownRequest: boolean;
  /** The workspace mails contacts its admins created (`org update --notify-admin-created on`). */
  adminCreatedMail: boolean;
  /** An unsubscribe of theirs covers this message (and they have not asked for the topic again since). */
  optedOut: boolean;
  /** Their address is on the workspace's suppression list (erased, and no fresh opt-in since). */
  suppressed: boolean;
}

/** An identified user: what they take part in, replies to what they wrote, and what they or the workspace subscribed them to. */
function identified(f: MailFacts): boolean {
  if (f.purpose === 'post_status') return f.participant || f.subscribed !== null;
  if (f.purpose === 'reply') return f.ownRequest;
  return f.subscribed !== null;
}

/**
 * Whether this person may get this message. By consent basis (the source is provenance and never widens it):
 * - `sdk_identify`: yes; the workspace's app established consent before calling identify.
 * - `public_interaction_opt_in`: only about the posts they opted in on, and what they subscribe to later themselves
 *   (a subscription the workspace made is not their opt-in).
 * - `admin_created`: only where the workspace turned it on; then as an identified user.
 * - `legacy_inferred`: suppressed, but for a reply to their own request.
 * - anything else (a basis a newer release added): no.
 * Nobody who opted out of the topic, and no suppressed address, whatever the basis.
 */
export function mayEmail(contact: { source: string; consentBasis: string }, facts: MailFacts): boolean {
  if (facts.suppressed || facts.optedOut) return false;
  switch (contact.consentBasis) {
    case 'sdk_identify':
      return identified(facts);
    case 'public_interaction_opt_in':
      return facts.subscribed === 'own' && (facts.purpose !== 'reply' || facts.ownRequest);
    case 'admin_created':
      return facts.adminCreatedMail && identified(facts);
    case 'legacy_inferred':
      return facts.purpose === 'reply' && facts.ownRequest;
    default:
      return false;
  }
}
