import type { Configuration } from '@mikro-orm/core';
import type { AbstractSqlDriver } from '@mikro-orm/knex';
import { expect, it } from 'vitest';
import { forBothDialects } from '../../../src/engine/migrations/both.js';
import { describeEngine } from '../../helpers/harness.js';

const probe = forBothDialects({
  sqlite: [
    'CREATE TABLE both_probe_sqlite (id text primary key)',
    'CREATE INDEX both_probe_sqlite_idx ON both_probe_sqlite (id)',
  ],
  postgresql: ['CREATE TABLE both_probe_postgresql (id text primary key)'],
});

describeEngine('a migration written once for both databases (forBothDialects)', (h) => {
  it("each database runs its own statements, in order, and PostgreSQL's without the statement timeout", async () => {
    const { orm } = h.engine;
    const migration = new probe[h.database](orm.em.getDriver() as AbstractSqlDriver, orm.config as Configuration);
    await migration.up();
    const queries = migration.getQueries();
    expect(queries).toEqual(
      h.database === 'sqlite'
        ? [
            'CREATE TABLE both_probe_sqlite (id text primary key)',
            'CREATE INDEX both_probe_sqlite_idx ON both_probe_sqlite (id)',
          ]
        : ['set local statement_timeout = 0', 'CREATE TABLE both_probe_postgresql (id text primary key)'],
    );
    for (const sql of queries.slice(h.database === 'sqlite' ? 0 : 1)) await h.engine.db.run(sql as string);
    await h.engine.db.run(`INSERT INTO both_probe_${h.database} (id) VALUES ('x')`);
    expect(await h.engine.db.all(`SELECT id FROM both_probe_${h.database}`)).toEqual([{ id: 'x' }]);
    await h.engine.db.run(`DROP TABLE both_probe_${h.database}`);
  });
});

it('a migration may be a function where a statement depends on what it reads', async () => {
  const seen: string[] = [];
  const both = forBothDialects({
    sqlite: (m) => {
      seen.push('sqlite');
      m.addSql('SELECT 1');
    },
    postgresql: () => {
      seen.push('postgresql');
    },
  });
  expect(Object.keys(both)).toEqual(['sqlite', 'postgresql']);
  const migration = new both.sqlite({} as AbstractSqlDriver, {} as Configuration);
  await migration.up();
  expect(seen).toEqual(['sqlite']);
  expect(migration.getQueries()).toEqual(['SELECT 1']);
});
