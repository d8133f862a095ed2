import { expect, expectTypeOf, it } from 'vitest';
import {
  EVENT_KINDS,
  type WebhookEvent as SchemaEvent,
  type EventKind as SchemaEventKind,
  type WebhookEventOf,
} from '../../src/schemas/events.js';
import type * as verify from '../../src/verify/index.js';

// The verifier declares the event payloads in plain TypeScript (its declarations import nothing); the schemas are their
// source. These assertions are checked by the type checker (`npm run typecheck`, in CI): a field added to a schema and
// not to the verifier's types, or the other way round, fails it.
it("the verifier's event types are exactly the schemas' inferred types", () => {
  expectTypeOf<verify.WebhookEvent>().toEqualTypeOf<SchemaEvent>();
  expectTypeOf<verify.EventKind>().toEqualTypeOf<SchemaEventKind>();
  expectTypeOf<verify.ContactUpdatedEvent>().toEqualTypeOf<WebhookEventOf<'contact.updated'>>();
  expectTypeOf<verify.VoteCreatedEvent>().toEqualTypeOf<WebhookEventOf<'vote.created'>>();
  expectTypeOf<verify.CompanyUpdatedEvent>().toEqualTypeOf<WebhookEventOf<'company.updated'>>();
  expectTypeOf<verify.PostMergedEvent>().toEqualTypeOf<WebhookEventOf<'post.merged'>>();
  expectTypeOf<verify.CommentUpdatedEvent>().toEqualTypeOf<WebhookEventOf<'comment.updated'>>();
  const kinds: verify.EventKind[] = [...EVENT_KINDS];
  expect(kinds).toHaveLength(17);
});
