import type { H3, H3Event } from 'h3';
import type { ConsoleKey } from '../../engine/index.js';
import { type Actor, CONSOLE_PATH, FeedbackError, isTeamRole, type Team } from '../../engine/index.js';
import { html, htmlResponse, seeOther } from '../../h3/index.js';
import { type Frame, page } from './layout.js';
import { type ConsoleSite, type ConsoleVisit, statusOf } from './site.js';
import { auditPage, postIdsOf, teamPage } from './team.page.js';
import { say } from './words.js';

const DONE: Record<string, ConsoleKey> = {
  invited: 'console.done.team.invited',
  role: 'console.done.team.role',
  removed: 'console.done.team.removed',
};

async function renderTeam(
  site: ConsoleSite,
  v: ConsoleVisit,
  team: Team,
  refused: { message: string; drafts: Record<string, string> } | null,
  done: string | null,
  status = 200,
) {
  const members = await site.engine.workspace(team.organizationId).team.list();
  return htmlResponse(
    status,
    teamPage(
      {
        ...v.frame,
        title: say('console.team.heading'),
        section: 'team',
        team,
        notice: done ? (DONE[done] ? say(DONE[done]!) : null) : null,
      },
      team,
      members,
      refused,
    ),
    v.cookies,
  );
}

/** A team form: the engine checks the role; done, back to the team page with a word; refused, the page with why. */
function teamAction(
  site: ConsoleSite,
  event: H3Event,
  run: (input: { form: URLSearchParams; team: Team; actor: Actor }) => Promise<string>,
) {
  return site.act(
    event,
    (team) => `${CONSOLE_PATH}/${team.organizationId}/team`,
    async (m) => {
      const done = await run(m);
      // Someone who removed themselves has nothing left to see here.
      if (done === 'removed' && m.form.get('email')?.trim().toLowerCase() === m.actor.email)
        return seeOther(`${CONSOLE_PATH}/`, m.v.cookies);
      return done;
    },
    (m, err) => {
      const drafts = {
        email: m.form.get('email') ?? '',
        name: m.form.get('name') ?? '',
        role: m.form.get('role') ?? '',
      };
      return renderTeam(site, m.v, m.team, { message: err.message, drafts }, null, statusOf(err));
    },
  );
}

const roleOf = (form: URLSearchParams) => {
  const role = form.get('role') ?? '';
  if (!isTeamRole(role)) throw new FeedbackError('ERR_VALIDATION', say('console.team.chooseRole'));
  return role;
};

/** The team page (members, invitations, roles, removal) and the audit log page (owners and admins). */
export function mountTeam(router: H3, site: ConsoleSite): void {
  // Embedded, the host's own sign-in decides who is on the team: the console's team page would manage nobody.
  if (!site.embedded) mountMembers(router, site);
  mountAudit(router, site);
}

function mountMembers(router: H3, site: ConsoleSite): void {
  router.get(`${CONSOLE_PATH}/:org/team`, async (event) => {
    const m = await site.member(event);
    if (m instanceof Response) return m;
    return renderTeam(site, m.v, m.team, null, event.url.searchParams.get('done'));
  });
  router.post(`${CONSOLE_PATH}/:org/team/invite`, (event) =>
    teamAction(site, event, async ({ form, team, actor }) => {
      const input = { email: form.get('email') ?? '', role: roleOf(form), name: form.get('name') };
      await site.engine
        .workspace(team.organizationId)
        .team.add(actor, input, { invite: true, workspace: team.workspace });
      return 'invited';
    }),
  );
  router.post(`${CONSOLE_PATH}/:org/team/role`, (event) =>
    teamAction(site, event, async ({ form, team, actor }) => {
      await site.engine.workspace(team.organizationId).team.changeRole(actor, form.get('email') ?? '', roleOf(form));
      return 'role';
    }),
  );
  router.post(`${CONSOLE_PATH}/:org/team/remove`, (event) =>
    teamAction(site, event, async ({ form, team, actor }) => {
      await site.engine.workspace(team.organizationId).team.remove(actor, form.get('email') ?? '');
      return 'removed';
    }),
  );
}

function mountAudit(router: H3, site: ConsoleSite): void {
  router.get(`${CONSOLE_PATH}/:org/audit`, async (event) => {
    const m = await site.member(event);
    if (m instanceof Response) return m;
    const frame: Frame = { ...m.v.frame, title: say('console.audit.heading'), section: 'audit', team: m.team };
    const team = site.engine.workspace(m.team.organizationId).team;
    const actor = site.actor(m.v);
    let result;
    try {
      result = await team.auditLog(actor, { cursor: event.url.searchParams.get('cursor') ?? undefined });
    } catch (err) {
      if (!(err instanceof FeedbackError)) throw err;
      if (err.code === 'ERR_FORBIDDEN')
        return htmlResponse(
          403,
          page(frame, html`<h1>${say('console.audit.heading')}</h1><p>${say('console.audit.ownersOnly')}</p>`),
          m.v.cookies,
        );
      result = await team.auditLog(actor);
    }
    const w = site.engine.workspace(m.team.organizationId);
    const [posts, tags, boards, members] = await Promise.all([
      w.triage.titles(result.data.flatMap(postIdsOf)),
      w.tags.list(),
      w.boards.list({ limit: 100 }).then((b) => b.data),
      team.list(),
    ]);
    const names = {
      posts,
      tags: new Map(tags.map((t) => [t.id, t.name])),
      boards: new Map(boards.map((b) => [b.id, b.name])),
      people: new Map(members.filter((x) => x.name).map((x) => [x.email, x.name!])),
    };
    return htmlResponse(200, auditPage(frame, m.team, result.data, names, result.nextCursor), m.v.cookies);
  });
}
