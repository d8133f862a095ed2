import type { EventKind } from '../../schemas/events.js';
import { events, type WorkspaceContext } from '../store/index.js';

export type StoredEvent = events.StoredEvent;

/** Read access to a workspace's events, oldest first. Built once per workspace. */
export function createEventsService({ db, organizationId }: WorkspaceContext) {
  return {
    /** The workspace's events in emission order, optionally of one kind. */
    list: (options: { type?: EventKind } = {}) => events.list(db, organizationId, options.type),
  };
}
export type EventsService = ReturnType<typeof createEventsService>;
