import type { EventKind } from '../schemas/events.js';
import * as events from './store/events.js';
import type { Database } from './store/sql.js';

export type { StoredEvent } from './store/events.js';

/** Read access to a workspace's events, oldest first. */
export function createEventsService(db: Database, organizationId: string) {
  return {
    /** The workspace's events in emission order, optionally of one kind. */
    list: (options: { type?: EventKind } = {}) => events.list(db, organizationId, options.type),
  };
}
export type EventsService = ReturnType<typeof createEventsService>;
