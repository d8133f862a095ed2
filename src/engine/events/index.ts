// Events: every change the spec names, written with the change (store/tables/events.ts); here, reading them.
export { createEventsService, type EventsService, type StoredEvent } from './service.js';
