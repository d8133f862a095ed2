import type { H3 } from 'h3';
import type { ConsoleKey } from '../../engine/index.js';
import { CONSOLE_PATH, FeedbackError, ROADMAP_STATUSES, type Team } from '../../engine/index.js';
import { htmlResponse } from '../../h3/index.js';
import type { PostStatus } from '../../schemas/posts.js';
import type { Frame } from './layout.js';
import { roadmapPage } from './roadmap.page.js';
import { type ConsoleSite, noticeOf } from './site.js';
import { say } from './words.js';

const DONE: Record<string, ConsoleKey> = {
  moved: 'console.done.roadmap.moved',
  ordered: 'console.done.roadmap.ordered',
};

/**
 * The roadmap: a column per status the portal's roadmap shows, its posts in the order the portal shows them. Drag a
 * post to reorder (with JavaScript), or use its Up and Down buttons (keyboard, and without JavaScript).
 */
export function mountRoadmap(router: H3, site: ConsoleSite): void {
  const isColumn = (s: string | null): s is PostStatus => (ROADMAP_STATUSES as readonly string[]).includes(s ?? '');
  const back = (team: Team) => `${CONSOLE_PATH}/${team.organizationId}/roadmap`;
  router.get(`${CONSOLE_PATH}/:org/roadmap`, async (event) => {
    const m = await site.member(event);
    if (m instanceof Response) return m;
    const columns = await site.engine.workspace(m.team.organizationId).triage.roadmap();
    const notice = noticeOf(event, DONE);
    const frame: Frame = {
      ...m.v.frame,
      title: say('console.roadmap.heading'),
      section: 'roadmap',
      team: m.team,
      notice,
    };
    return htmlResponse(200, roadmapPage(frame, m.team, columns), m.v.cookies);
  });
  // One post to a place in its column (0 is the top).
  router.post(`${CONSOLE_PATH}/:org/roadmap/move`, (event) =>
    site.act(event, back, async ({ form, team, actor }) => {
      const status = form.get('status');
      if (!isColumn(status)) throw new FeedbackError('ERR_VALIDATION', say('console.roadmap.chooseColumn'));
      await site.engine
        .workspace(team.organizationId)
        .as(actor)
        .posts.place(status, form.get('post') ?? '', Number.parseInt(form.get('to') ?? '', 10));
      return 'moved';
    }),
  );
  // A column's whole order, as the page's script sends it after a drop.
  router.post(`${CONSOLE_PATH}/:org/roadmap/order`, (event) =>
    site.act(event, back, async ({ form, team, actor }) => {
      const status = form.get('status');
      if (!isColumn(status)) throw new FeedbackError('ERR_VALIDATION', say('console.roadmap.chooseColumn'));
      await site.engine.workspace(team.organizationId).as(actor).posts.reorder(status, form.getAll('post'));
      return 'ordered';
    }),
  );
}
