// The console's words (docs/console.md): English this turn, in the same catalogs and the same ICU MessageFormat as the
// portal's, so that the console can follow the portal into other languages (a catalog per language beside these).

import { consoleChangelog } from './changelog.js';
import { consoleDone } from './done.js';
import { consoleIntegrations } from './integrations.js';
import { consoleKeys } from './keys.js';
import { consoleLayout } from './layout.js';
import { consoleMail } from './mail.js';
import { consolePeople } from './people.js';
import { consolePost } from './post.js';
import { consolePosts } from './posts.js';
import { consoleSettings } from './settings.js';
import { consoleSignIn } from './sign-in.js';
import { consoleTeam } from './team.js';
import { consoleWebhooks } from './webhooks.js';

export const consoleEn = {
  ...consoleLayout,
  ...consoleMail,
  ...consoleSettings,
  ...consolePost,
  ...consolePosts,
  ...consoleSignIn,
  ...consoleTeam,
  ...consoleKeys,
  ...consoleWebhooks,
  ...consoleIntegrations,
  ...consolePeople,
  ...consoleChangelog,
  ...consoleDone,
} as const;
