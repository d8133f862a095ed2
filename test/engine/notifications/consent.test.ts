import { describe, expect, it } from 'vitest';
import { MAIL_PURPOSES, type MailFacts, type MailPurpose, mayEmail } from '../../../src/engine/index.js';
import { CONSENT_BASES, CONTACT_SOURCES } from '../../../src/schemas/contacts.js';

/**
 * The consent table of the spec, as issue 17 reads it, written out here by hand (not computed): for each basis, when a
 * message of each purpose may go. `participant`: linked to the post (author, voter, commenter); `subscribed`: to this
 * topic, by the person themselves (`own`: the notify-me box, the preferences page) or by the workspace's code;
 * `ownRequest`: a reply to their own post or comment; `adminCreatedMail`: the workspace turned on mail to admin-created
 * contacts.
 */
type Case = Pick<MailFacts, 'participant' | 'subscribed' | 'ownRequest' | 'adminCreatedMail'>;
const CASES: Case[] = [];
for (const participant of [false, true])
  for (const subscribed of [null, 'workspace', 'own'] as const)
    for (const ownRequest of [false, true])
      for (const adminCreatedMail of [false, true])
        CASES.push({ participant, subscribed, ownRequest, adminCreatedMail });

const EXPECTED: Record<string, (purpose: MailPurpose, c: Case) => boolean> = {
  // "yes; the app established consent before calling": what they take part in, what they reply to, what they subscribe to.
  sdk_identify: (purpose, c) =>
    purpose === 'post_status'
      ? c.participant || c.subscribed !== null
      : purpose === 'reply'
        ? c.ownRequest
        : c.subscribed !== null,
  // "only for the posts they opted in on, plus anything they subscribe to later": their own subscription; taking part,
  // or the workspace subscribing them, is not enough.
  public_interaction_opt_in: (purpose, c) => c.subscribed === 'own' && (purpose !== 'reply' || c.ownRequest),
  // "only if the workspace turns it on", and then as an identified user.
  admin_created: (purpose, c) =>
    c.adminCreatedMail &&
    (purpose === 'post_status'
      ? c.participant || c.subscribed !== null
      : purpose === 'reply'
        ? c.ownRequest
        : c.subscribed !== null),
  // "never for anything but a reply to their own request".
  legacy_inferred: (purpose, c) => purpose === 'reply' && c.ownRequest,
};

describe('the consent rule (mayEmail)', () => {
  it('follows the consent table for every source x basis pair, every purpose and every combination of facts', () => {
    let checked = 0;
    for (const source of CONTACT_SOURCES) {
      for (const consentBasis of CONSENT_BASES) {
        for (const purpose of MAIL_PURPOSES) {
          for (const c of CASES) {
            const facts: MailFacts = { purpose, ...c, optedOut: false, suppressed: false };
            const expected = EXPECTED[consentBasis]!(purpose, c);
            expect(
              mayEmail({ source, consentBasis }, facts),
              `${source} / ${consentBasis} / ${purpose} / ${JSON.stringify(c)}`,
            ).toBe(expected);
            checked++;
          }
        }
      }
    }
    expect(checked).toBe(CONTACT_SOURCES.length * CONSENT_BASES.length * MAIL_PURPOSES.length * 24);
  });

  it('never mails a person who opted out of the topic or whose address is suppressed, whatever the basis', () => {
    const everything: Case = { participant: true, subscribed: 'own', ownRequest: true, adminCreatedMail: true };
    for (const source of CONTACT_SOURCES) {
      for (const consentBasis of CONSENT_BASES) {
        for (const purpose of MAIL_PURPOSES) {
          expect(
            mayEmail({ source, consentBasis }, { purpose, ...everything, optedOut: true, suppressed: false }),
          ).toBe(false);
          expect(
            mayEmail({ source, consentBasis }, { purpose, ...everything, optedOut: false, suppressed: true }),
          ).toBe(false);
        }
      }
    }
  });

  it('mails nobody with a basis it does not know (an open enum: a newer release may add one)', () => {
    const everything = {
      participant: true,
      subscribed: 'own' as const,
      ownRequest: true,
      adminCreatedMail: true,
      optedOut: false,
      suppressed: false,
    };
    for (const purpose of MAIL_PURPOSES)
      expect(mayEmail({ source: 'identify', consentBasis: 'some_future_basis' }, { purpose, ...everything })).toBe(
        false,
      );
  });

  it("lets a legacy_inferred contact have a reply to their own request, and nothing else (the spec's one exception)", () => {
    const legacy = { source: 'public_post', consentBasis: 'legacy_inferred' };
    const base = {
      participant: true,
      subscribed: 'own' as const,
      adminCreatedMail: true,
      optedOut: false,
      suppressed: false,
    };
    expect(mayEmail(legacy, { purpose: 'reply', ownRequest: true, ...base })).toBe(true);
    expect(mayEmail(legacy, { purpose: 'reply', ownRequest: false, ...base })).toBe(false);
    expect(mayEmail(legacy, { purpose: 'post_status', ownRequest: true, ...base })).toBe(false);
    expect(mayEmail(legacy, { purpose: 'changelog', ownRequest: true, ...base })).toBe(false);
  });
});
