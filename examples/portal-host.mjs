// Your app's side of the portal: a page with the feedback widget, whose user is signed in with a token your backend
// mints (docs/portal.md, "Sign users in"), and a plain link that signs them in on the portal itself.
// Run: FEEDBACK_URL=http://127.0.0.1:3000 FEEDBACK_PORTAL=acme FEEDBACK_ORG_ID=org_... FEEDBACK_PORTAL_SECRET=fps_... \
//      node examples/portal-host.mjs
// and allow this page to frame the portal: feedback-service org update ORG_ID --portal-frame-origin http://localhost:4000
// Needs: npm i jose
import { createServer } from 'node:http';
import { SignJWT } from 'jose';

const feedbackUrl = process.env.FEEDBACK_URL ?? 'http://127.0.0.1:3000';
const portal = process.env.FEEDBACK_PORTAL ?? 'acme';
const organizationId = process.env.FEEDBACK_ORG_ID;
const secret = new TextEncoder().encode(process.env.FEEDBACK_PORTAL_SECRET);
if (!organizationId || !process.env.FEEDBACK_PORTAL_SECRET)
  throw new Error('Set FEEDBACK_ORG_ID and FEEDBACK_PORTAL_SECRET');

/** A short-lived token for one of your users: HS256, sub = your user id, aud = the workspace, exp within 24 hours. */
function portalToken(user) {
  return new SignJWT({ email: user.email, name: user.name, plan: user.plan })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(user.id)
    .setAudience(organizationId)
    .setIssuedAt()
    .setExpirationTime('10m')
    .sign(secret);
}

// Your session decides who this is; here, one made-up user.
const currentUser = () => ({ id: 'user-42', email: 'dana@example.com', name: 'Dana', plan: 'pro' });

const escapeHtml = (text) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const server = createServer(async (_req, res) => {
  const token = await portalToken(currentUser());
  const signInLink = `${feedbackUrl}/portal/${portal}/sign-in?token=${token}`;
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Acme app</title></head>
<body><main><h1>Acme app</h1><p><a href="${escapeHtml(signInLink)}">Open the feedback portal</a></p></main>
<script>window.FeedbackService = [['identify', { token: ${JSON.stringify(token).replace(/</g, '\\u003c')} }]];</script>
<script src="${escapeHtml(feedbackUrl)}/portal/widget.js" data-portal="${escapeHtml(portal)}" async></script>
</body></html>`);
});
server.listen(Number(process.env.PORT ?? 4000), '127.0.0.1', () =>
  console.log(`listening on http://localhost:${server.address().port}`),
);
