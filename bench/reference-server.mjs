// The reference: a bare node:http server doing what identify minimally must (key lookup + one upsert)
// with raw driver SQL (pg or libsql), no ORM, no validation, no event row. Same schema, same database. Each statement
// prepared once (per connection on PostgreSQL), as the stack's are.
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { keySql, upsertSql } from './reference-sql.mjs';

const { values } = parseArgs({ options: { db: { type: 'string' }, key: { type: 'string' } } });
const isPg = /^postgres/.test(values.db);
let query;
if (isPg) {
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({ connectionString: values.db, max: 10 });
  const n = (i) => `$${i}`;
  const [keyText, upsertText] = [keySql(n), upsertSql(n)];
  // Named statements: parsed and planned once per connection, as the stack's are.
  query = {
    key: async (h) => (await pool.query({ name: 'ref_key', text: keyText, values: [h] })).rows[0],
    upsert: async (p) => (await pool.query({ name: 'ref_upsert', text: upsertText, values: p })).rows[0],
  };
} else {
  // The same driver as the product (libsql, synchronous), each statement prepared once, as a careful hand-written server would.
  const { default: Database } = await import('libsql');
  const db = new Database(values.db);
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000');
  const key = db.prepare(keySql(() => '?'));
  const upsert = db.prepare(upsertSql(() => '?'));
  // The upsert is stepped to its end (`all`, not `get`): SQLite runs its automatic checkpoint only when a statement
  // finishes, and a RETURNING statement left after its first row never does, so its WAL would grow without end.
  query = { key: (h) => key.get([h]), upsert: (p) => upsert.all(p)[0] };
}

let seq = 0;
const server = createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', async () => {
    try {
      const token = (req.headers.authorization ?? '').slice(7);
      const key = await query.key(createHash('sha256').update(token).digest('hex'));
      if (!key) {
        res.writeHead(401).end();
        return;
      }
      const input = JSON.parse(body);
      const now = new Date();
      const t = isPg ? now : now.getTime();
      const row = await query.upsert([
        `ctc_ref${process.pid}${seq++}`,
        key.organization_id,
        input.externalUserId,
        input.email ?? null,
        null,
        input.name ?? null,
        null,
        null,
        null,
        '{}',
        'identify',
        'sdk_identify',
        t,
        t,
        t,
        t,
      ]);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: row }));
    } catch (err) {
      res.writeHead(500).end(String(err));
    }
  });
});
server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ url: `http://127.0.0.1:${server.address().port}` })));
process.on('SIGTERM', () => process.exit(0));
