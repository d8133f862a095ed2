/**
 * The portal's addresses. The portal serves them; the engine writes them into mail (a post's page, the preferences and
 * unsubscribe pages), so they are defined here, once.
 */

/** Where the portal answers; every page of a workspace is under `${PORTAL_PATH}/<handle>/`. */
export const PORTAL_PATH = '/portal';

/** The addresses of one workspace's pages. Slugs and handles are `[a-z0-9-]`, so they need no encoding. */
export function pathsOf(handle: string) {
  const home = `${PORTAL_PATH}/${handle}/`;
  return {
    home,
    board: (board: string) => `${home}b/${board}`,
    post: (board: string, post: string) => `${home}b/${board}/p/${post}`,
    roadmap: `${home}roadmap`,
    changelog: `${home}changelog`,
    newPost: (board: string) => `${home}b/${board}/new`,
    vote: (board: string, post: string) => `${home}b/${board}/p/${post}/vote`,
    /** Where a voter takes their vote back. */
    unvote: (board: string, post: string) => `${home}b/${board}/p/${post}/unvote`,
    comment: (board: string, post: string) => `${home}b/${board}/p/${post}/comment`,
    signIn: `${home}sign-in`,
    signOut: `${home}sign-out`,
    confirm: (codeId: string) => `${home}confirm/${codeId}`,
    similar: (board: string) => `${home}b/${board}/similar`,
    /** For someone signed in: their email settings (the preferences page, with a token of their own). */
    notifications: `${home}notifications`,
    /** Where the language switcher posts (docs/portal.md, "Languages"). */
    language: `${home}language`,
  };
}
export type Paths = ReturnType<typeof pathsOf>;

/**
 * The pages a mail's links lead to, for every workspace (with or without a portal): managing what one gets, and
 * unsubscribing (RFC 8058 one-click POST, or a page with a button). Their `t` parameter is the recipient's signed token.
 */
export const MAIL_PAGES = {
  preferences: `${PORTAL_PATH}/mail/preferences`,
  unsubscribe: `${PORTAL_PATH}/mail/unsubscribe`,
} as const;

/** Path segments under the portal that are not workspaces: no handle may take them. */
export const RESERVED_HANDLES: readonly string[] = ['mail', 'assets'];
