// Prints the DDL the entity model implies, per dialect: the starting point of a checked-in migration.
import { MikroORM as SqliteORM } from '@mikro-orm/libsql';
import { MikroORM as PgORM } from '@mikro-orm/postgresql';
import { ormOptions } from '../src/engine/orm.js';

const dialect = process.argv[2] ?? 'sqlite';
const orm =
  dialect === 'sqlite'
    ? await SqliteORM.init(ormOptions({ dialect: 'sqlite', location: ':memory:' }) as never)
    : await PgORM.init(
        ormOptions({
          dialect: 'postgresql',
          location: process.argv[3] ?? 'postgres://postgres@127.0.0.1:5432/test',
        }) as never,
      );
console.log(await orm.schema.getCreateSchemaSQL({ wrap: false }));
await orm.close();
