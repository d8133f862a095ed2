import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEngine } from '../../helpers/harness.js';

// The optional embeddings endpoint (issue 52): a local fake of an OpenAI-compatible `POST /v1/embeddings` (as Ollama
// and llama.cpp's server answer it). Posts' titles are embedded by the scheduler's chore and kept; a typed title is
// embedded when asked; titles that share no word but mean the same are then suggested; with the endpoint down, the
// lexical similarity answers alone.

/** The fake's meaning: words of one concept share a dimension; any other word a dimension of its own. */
const CONCEPTS = [['changelog', 'release', 'notes'], ['viewer', 'role', 'read', 'only'], ['slack']];
const DIMENSIONS = 64;
function embed(text: string): number[] {
  const v = new Array<number>(DIMENSIONS).fill(0);
  for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    const concept = CONCEPTS.findIndex((c) => c.includes(word));
    const dim = concept >= 0 ? concept : 10 + ([...word].reduce((h, c) => h * 31 + c.charCodeAt(0), 7) % 54);
    v[dim]! += 1;
  }
  return v;
}

const requests: Array<{ path: string; auth: string | undefined; body: { model: string; input: string[] } }> = [];
let down = false;
const server = createServer((req, res) => {
  let text = '';
  req.on('data', (c: Buffer) => {
    text += c.toString();
  });
  req.on('end', () => {
    const body = JSON.parse(text);
    requests.push({ path: req.url ?? '', auth: req.headers.authorization, body });
    if (down) {
      res.writeHead(503, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ error: { message: 'model is loading' } }));
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        object: 'list',
        model: body.model,
        data: (body.input as string[]).map((t, index) => ({ object: 'embedding', index, embedding: embed(t) })),
      }),
    );
  });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeAll(() => {
  requests.length = 0;
});

describeEngine(
  'possible duplicates with an embeddings endpoint',
  (h) => {
    it('embeds titles in the chore, suggests by meaning, and answers lexically alone when the endpoint is down', async () => {
      down = false;
      const org = await h.engine.organizations.create({ name: 'Meaning', plan: 'paid' });
      const w = h.engine.workspace(org.id);
      const board = await w.boards.create({ name: 'Ideas' });
      for (const title of ['Changelog', 'Read-only team members', 'Slack notifications'])
        await w.posts.create(board.id, { title });
      await h.engine.scheduler.runChores();
      const batch = requests.find((r) => r.body.input.includes('Changelog'))!;
      expect(batch.path).toBe('/v1/embeddings');
      expect(batch.auth).toBe('Bearer test-key');
      expect(batch.body.model).toBe('fake-embed');
      const kept = await h.engine.db.all<{ title: string }>(
        'SELECT title FROM post_embedding WHERE organization_id = ? ORDER BY title',
        [org.id],
      );
      expect(kept.map((k) => k.title)).toEqual(['Changelog', 'Read-only team members', 'Slack notifications']);
      // No word in common, the same meaning: suggested now; and in the console too.
      expect((await w.portal.similar(board.id, 'Release notes page')).map((p) => p.title)).toEqual(['Changelog']);
      const viewer = await w.posts.create(board.id, { title: 'Viewer role' });
      await h.engine.scheduler.runChores();
      expect((await w.triage.duplicates(viewer.id)).map((d) => d.post.title)).toContain('Read-only team members');
      // A changed title is embedded again; the chore sends nothing when nothing changed.
      const sent = requests.length;
      await h.engine.scheduler.runChores();
      expect(requests.length).toBe(sent);
      await w.posts.update(viewer.id, { title: 'Viewer role for auditors' });
      await h.engine.scheduler.runChores();
      expect(requests.at(-1)!.body.input).toEqual(['Viewer role for auditors']);
      // Down: the lexical similarity alone, no error.
      down = true;
      expect(await w.portal.similar(board.id, 'Release notes page')).toEqual([]);
      expect((await w.portal.similar(board.id, 'Slack notification')).map((p) => p.title)).toEqual([
        'Slack notifications',
      ]);
    });
  },
  { engine: { embeddings: { url, model: 'fake-embed', apiKey: 'test-key', timeoutMs: 2000 } } },
);
