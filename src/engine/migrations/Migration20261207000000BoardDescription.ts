import { forBothDialects } from './both.js';

/** What a board is for, in a sentence or two: the portal's boards page shows it under the board's name. */
export const BoardDescription = forBothDialects({
  sqlite: ['alter table `board` add column `description` text null'],
  postgresql: ['alter table "board" add column "description" text null'],
});
