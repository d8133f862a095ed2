import type { Engine } from '../../src/engine/index.js';

/** A workspace a team triages: two boards, posts with votes of paying and free contacts, a held post. */
export async function seedConsole(engine: Engine) {
  const org = await engine.organizations.create({ name: 'Acme', plan: 'paid' });
  await engine.organizations.update(org.id, { handle: 'acme', portalEnabled: true });
  const w = engine.workspace(org.id);
  const ideas = await w.boards.create({
    name: 'Feature requests',
    description: 'What you would like the product to do next.',
  });
  const bugs = await w.boards.create({ name: 'Bugs', description: 'Something broken? Tell us what you saw.' });
  const people = [
    { id: 'u1', email: 'dana@bigco.example', name: 'Dana Whit', plan: 'enterprise', mrrCents: 120_000 },
    { id: 'u2', email: 'lee@shop.example', name: 'Lee Park', plan: 'pro', mrrCents: 9_900 },
    { id: 'u3', email: 'sam@studio.example', name: 'Sam Ito', plan: 'pro', mrrCents: 9_900 },
    { id: 'u4', email: 'kim@home.example', name: 'Kim Roe', plan: 'free', mrrCents: 0 },
  ];
  for (const p of people)
    await w.contacts.identify({
      externalUserId: p.id,
      email: p.email,
      name: p.name,
      plan: p.plan,
      mrrCents: p.mrrCents,
      currency: 'USD',
    });
  const dark = await w.participation.post({
    boardId: ideas.id,
    email: 'kim@home.example',
    name: 'Kim Roe',
    authorUserId: 'u4',
    vouched: true,
    title: 'Dark mode',
    body: { json: {}, text: 'Easier on the eyes at night.' },
    notifyMe: true,
  });
  const csv = await w.posts.create(ideas.id, { title: 'Export to CSV' });
  const sso = await w.posts.create(ideas.id, { title: 'Single sign-on with Okta' });
  const night = await w.posts.create(ideas.id, { title: 'Night theme' });
  await w.posts.create(bugs.id, { title: 'Avatar upload fails on Safari' });
  for (const p of people)
    await w.participation.vote({ postId: dark.id, email: p.email, userId: p.id, vouched: true, notifyMe: false });
  for (const p of people.slice(0, 2))
    await w.participation.vote({ postId: sso.id, email: p.email, userId: p.id, vouched: true, notifyMe: false });
  await w.participation.vote({
    postId: csv.id,
    email: 'kim@home.example',
    userId: 'u4',
    vouched: true,
    notifyMe: false,
  });
  await w.participation.comment({
    postId: dark.id,
    email: 'lee@shop.example',
    name: 'Lee Park',
    authorUserId: 'u2',
    vouched: true,
    bodyText: 'Please, and for the editor too.',
    notifyMe: false,
  });
  await w.participation.post(
    {
      boardId: ideas.id,
      email: 'anon@example.com',
      title: 'Calendar sync',
      body: { json: {}, text: 'Two-way with Google.' },
      notifyMe: false,
    },
    { held: true },
  );
  return { org, w, ideas, dark, night };
}
