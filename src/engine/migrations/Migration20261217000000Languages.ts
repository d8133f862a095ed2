import { forBothDialects } from './both.js';

/**
 * The end-user's language (docs/portal.md, "Languages"): a contact's own (`locale`, a BCP 47 tag), a workspace's
 * default (English unless set) and the team's own words for some of the portal's messages.
 */
export const Languages = forBothDialects({
  sqlite: [
    'alter table `contact` add column `locale` text null',
    "alter table `organization` add column `locale` text not null default 'en'",
    "alter table `organization` add column `portal_wording` json not null default '{}'",
  ],
  postgresql: [
    'alter table "contact" add column "locale" varchar(35) null',
    `alter table "organization" add column "locale" varchar(35) not null default 'en'`,
    `alter table "organization" add column "portal_wording" jsonb not null default '{}'`,
  ],
});
