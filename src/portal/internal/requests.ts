import type { H3Event } from 'h3';
import {
  type MessageKey,
  type OrganizationInfo,
  type Participation,
  type Paths,
  PORTAL_PATH,
  type PortalIdentity,
  type Translator,
} from '../../engine/index.js';
import { fieldFault, type RequestFacts, csrfOf as siteCsrfOf } from '../../h3/index.js';
import type { PageFrame } from './layout.js';

export {
  factsOf,
  forgeryReason,
  type RequestFacts,
  readCookie,
  readForm,
  readFormText,
} from '../../h3/index.js';

/** The cookie that holds a signed-in end-user's session token, one per workspace (its path is the workspace's). */
export const SESSION_COOKIE = 'fs_session';

/** A request to a workspace's portal: the workspace, who is signed in, the page frame and the cookies to set. */
export interface Visit {
  org: OrganizationInfo;
  paths: Paths;
  frame: Omit<PageFrame, 'title'>;
  facts: RequestFacts;
  /** Set-Cookie values the answer carries (a new anti-forgery token). */
  cookies: string[];
  participation: Participation;
  viewer: PortalIdentity | null;
  /** Whether this viewer may post, vote and comment here. */
  canTakePart: boolean;
}

/** The portal pages' anti-forgery token (its cookie shared by every workspace's portal). */
export const csrfOf = (event: H3Event, facts: RequestFacts) => siteCsrfOf(event, facts, PORTAL_PATH);

/** A form field's text, trimmed, or what is wrong with it in the page's words. */
export function field(
  form: URLSearchParams,
  name: string,
  max: number,
  tr: Translator,
  words: { required?: MessageKey; tooLong: MessageKey },
): { value?: string; error?: string } {
  const { value, fault } = fieldFault(form, name, max, words.required !== undefined);
  if (fault === 'required') return { error: tr.t(words.required!) };
  if (fault === 'tooLong') return { error: tr.t(words.tooLong, { max }) };
  if (fault === 'characters') return { error: tr.t('field.characters') };
  return value === undefined ? {} : { value };
}
