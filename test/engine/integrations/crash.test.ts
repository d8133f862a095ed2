import { afterAll, expect, it } from 'vitest';
import { GITHUB_REPO, GITHUB_TOKEN, startFakeGitHub } from '../../helpers/fakes/github.js';
import { LINEAR_API_KEY, LINEAR_TEAM, startFakeLinear } from '../../helpers/fakes/linear.js';
import { describeEngine } from '../../helpers/harness.js';
import { integrationWorkspace, jobsOf } from '../../helpers/integrations.js';
import { type SchedulerProcess, startSchedulerProcess } from '../../helpers/processes.js';
import { until } from '../../helpers/wait.js';

// Never twice: a scheduler process killed (SIGKILL) after its call made the issue and before it recorded anything,
// then another process once the lease lapsed, leaves exactly one issue and one link: Linear by the id chosen for the
// issue, GitHub by the mark in the issue's body.

const linear = await startFakeLinear();
const github = await startFakeGitHub();
afterAll(async () => {
  await linear.close();
  await github.close();
});

describeEngine(
  'a scheduler killed between the call and its record',
  (h) => {
    for (const service of ['linear', 'github'] as const) {
      it(`${service}: the restarted scheduler makes no second issue`, async () => {
        const w = await integrationWorkspace(h.engine);
        const input = service === 'linear' ? { service, apiKey: LINEAR_API_KEY } : { service, token: GITHUB_TOKEN };
        const { id } = await w.admin.integrations.connect(input);
        await h.engine.scheduler.runDue();
        const title = `Crash ${service} ${h.database}`;
        await w.member.integrations.createIssue(
          w.post.id,
          service,
          service === 'linear' ? LINEAR_TEAM.id : GITHUB_REPO,
          title,
        );
        const env = {
          DATABASE_URL: h.url,
          LEASE_MS: '1500',
          POLL_MS: '100',
          LINEAR_API_URL: linear.apiUrl,
          GITHUB_API_URL: github.origin,
        };
        let doomed: SchedulerProcess | undefined;
        let killed: Promise<void> | undefined;
        // The service makes the issue, then the process that asked dies before the answer reaches it.
        const kill = (_issue: unknown, res: import('node:http').ServerResponse) => {
          killed ??= doomed!.kill().then(() => void res.destroy());
          return true;
        };
        (service === 'linear' ? linear : github).onCreate(kill);
        try {
          doomed = await startSchedulerProcess(env);
          await until('the doomed process to have made its call', () => killed !== undefined);
          await killed;
        } finally {
          (service === 'linear' ? linear : github).onCreate(null);
        }
        const made = () =>
          service === 'linear'
            ? [...linear.issues.values()].filter((i) => i.title === title).length
            : github.issues.filter((i) => i.title === title).length;
        expect(made()).toBe(1);
        const [job] = (await jobsOf(h.engine, id)).filter((j) => j.kind === `${service}.create_issue`);
        expect(job).toMatchObject({ status: 'pending', attempt_count: 1, last_error: null });
        expect((await w.ws.integrations.forPost(w.post.id)).links).toEqual([]);

        const survivor = await startSchedulerProcess(env);
        try {
          await until(
            'the restarted process to link the issue',
            async () => (await w.ws.integrations.forPost(w.post.id)).links.length > 0,
          );
        } finally {
          await survivor.stop();
        }
        expect(made()).toBe(1);
        expect((await w.ws.integrations.forPost(w.post.id)).links).toHaveLength(1);
        expect((await jobsOf(h.engine, id)).find((j) => j.id === job!.id)).toMatchObject({
          status: 'succeeded',
          attempt_count: 2,
        });
      });
    }
  },
  { engine: { integrations: { linear: { apiUrl: linear.apiUrl }, github: { apiUrl: github.origin } } } },
);
