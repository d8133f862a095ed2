// What the portal and the console share as sites: reading a form their own pages sent (refusing forgeries), the
// page of a spent budget (429 with Retry-After) and the page of what is not there (404). Each site words and frames
// its own message page; the rules are here once.
import type { H3Event } from 'h3';
import { type Engine, type MessageKey, type MessageValues, type Translator, translator } from '../engine/index.js';
import { forgeryReason, readForm, spentBudget } from './forms.js';
import { htmlResponse, respond } from './pages.js';

/** What the base needs of a site's visit: the cookies its answers set. */
export interface SiteVisit {
  readonly cookies: readonly string[];
}

export abstract class SiteBase<V extends SiteVisit> {
  constructor(
    readonly engine: Engine,
    readonly trustProxy: boolean,
    /** The site's name, which its budgets are counted under. */
    private readonly budgets: 'portal' | 'console',
  ) {}

  /** The site's page for a message: a heading and a sentence, in the frame of `v` (or the site's bare page without one). */
  protected abstract messagePage(v: V | null, heading: string, text: string, tr?: Translator): string;

  /** A message of the catalogs in the words of `v`'s page (English unless a site says otherwise). */
  protected say(_v: V | null, key: MessageKey, values?: MessageValues): string {
    return translator().t(key, values);
  }

  /** The key `key` is counted under for `v` (the portal counts per workspace). */
  protected budgetKey(_v: V, key: string): string {
    return key;
  }

  /** The 404 page, saying what is not there. */
  notFound(v: V | null, what = this.say(v, 'page.noPage'), tr?: Translator): Response {
    const heading = tr ? tr.t('page.notFound') : this.say(v, 'page.notFound');
    return htmlResponse(404, this.messagePage(v, heading, what, tr), v?.cookies);
  }

  /** A form sent by one of the site's own pages; otherwise the page that says why it was not taken. */
  async form(event: H3Event, v: V): Promise<URLSearchParams | Response> {
    const form = await readForm(event);
    if (!(form instanceof URLSearchParams))
      return htmlResponse(
        form.status,
        this.messagePage(v, this.say(v, 'page.notSent'), this.say(v, form.key)),
        v.cookies,
      );
    const forged = forgeryReason(event, form, this.trustProxy);
    return forged
      ? htmlResponse(403, this.messagePage(v, this.say(v, 'page.notAccepted'), this.say(v, forged)), v.cookies)
      : form;
  }

  /** Count a request against a budget; the 429 page, with Retry-After, when it is spent. */
  async overLimit(v: V, key: string, limit: number): Promise<Response | null> {
    const seconds = await spentBudget(this.engine, this.budgets, this.budgetKey(v, key), limit);
    if (seconds === null) return null;
    const page = this.messagePage(v, this.say(v, 'page.tooMany'), this.say(v, 'page.wait', { seconds }));
    return respond(429, page, v.cookies, { 'retry-after': String(seconds) });
  }
}
