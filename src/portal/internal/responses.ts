// The portal's answers: every one with the same security headers.

/**
 * Every portal answer's headers: no inline script or style may run, nothing loads from elsewhere, forms post only
 * here, and no other site may frame the pages.
 */
const CSP = "default-src 'none'; style-src 'self'; img-src 'self' data:; script-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'";
/** The policy of a workspace's pages: framed only by the origins it lists (the widget's hosts), else by nobody. */
export const cspFor = (frameOrigins: readonly string[]) => `${CSP}; frame-ancestors ${frameOrigins.length ? frameOrigins.join(' ') : "'none'"}`;
const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': cspFor([]),
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
};

export function respond(status: number, body: string | null, cookies: readonly string[] = [], extra: Record<string, string> = {}): Response {
  const headers = new Headers({ ...SECURITY_HEADERS, 'cache-control': 'no-cache', ...extra });
  if (body !== null) headers.set('content-type', 'text/html; charset=utf-8');
  for (const c of cookies) headers.append('set-cookie', c);
  return new Response(body, { status, headers });
}
export const htmlResponse = (status: number, body: string, cookies?: readonly string[]) => respond(status, body, cookies);
export const jsonResponse = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { ...SECURITY_HEADERS, 'content-type': 'application/json', 'cache-control': 'no-store' } });
/** After a form: go to the page that shows its result (303, so a reload does not send it again). */
export const seeOther = (location: string, cookies?: readonly string[]) => respond(303, null, cookies, { location, 'cache-control': 'no-store' });
