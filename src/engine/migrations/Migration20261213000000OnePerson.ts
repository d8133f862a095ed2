import { forBothDialects } from './both.js';

/**
 * One person, one contact and one vote per post (docs/identity.md): the merge of what was written before is the
 * engine's chore (it writes events), left to `migrate()` by a row of `upgrade_chore`.
 */
export const OnePerson = forBothDialects({
  sqlite: [
    'create table `upgrade_chore` (`name` text not null, primary key (`name`))',
    "insert into `upgrade_chore` (`name`) values ('merge_people')",
  ],
  postgresql: [
    'create table "upgrade_chore" ("name" varchar(40) not null, constraint "upgrade_chore_pkey" primary key ("name"))',
    `insert into "upgrade_chore" ("name") values ('merge_people')`,
  ],
});
