/** How long the console's sign-ins and sessions last, in seconds. */
export const TEAM_LIFETIMES = {
  /** A link and code mailed from the sign-in page. */
  mailedSignIn: 15 * 60,
  /** A link the command line prints, and an invitation's link. */
  issuedSignIn: 7 * 24 * 3600,
  /** A session, however active. */
  session: 7 * 24 * 3600,
  /** A session not used for this long ends. */
  sessionIdle: 12 * 3600,
};
