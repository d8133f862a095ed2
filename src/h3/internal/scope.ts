import type { H3Event } from 'h3';
import type { ResponseHeaders } from './respond.js';

/** What one request carries through the app: its id, its answer's headers, and who it turned out to be. */
export interface RequestScope {
  requestId: string;
  headers: ResponseHeaders;
  keyId?: string;
  organizationId?: string;
}

/** The request's scope, which the `observe` middleware puts on every request before any route runs. */
export const scopeOf = (event: H3Event): RequestScope => event.context.scope as RequestScope;
