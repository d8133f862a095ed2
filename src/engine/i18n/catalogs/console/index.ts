// The console's words (docs/console.md): English this turn, in the same catalogs and the same ICU MessageFormat as the
// portal's, so that the console can follow the portal into other languages (a catalog per language beside these).
import { consoleLayout } from './layout.js';
import { consoleWebhooks } from './webhooks.js';
import { consoleKeys } from './keys.js';
import { consoleDone } from './done.js';
import { consoleTeam } from './team.js';
import { consoleSignIn } from './sign-in.js';

export const consoleEn = { ...consoleLayout, ...consoleWebhooks, ...consoleKeys, ...consoleDone, ...consoleTeam, ...consoleSignIn } as const;
