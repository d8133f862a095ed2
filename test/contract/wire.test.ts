import { expect, it } from 'vitest';
import { OPERATION_IDS, OPERATIONS } from '../../src/contract/index.js';
import { WIRE } from '../../src/contract/wire.js';
import { WIRE_FLAGS, wireOf } from '../../src/contract/wire-of.js';

it('the wire table the client carries is the rows projected, every operation in order (npm run contract:wire)', () => {
  expect(Object.keys(WIRE)).toEqual(OPERATION_IDS);
  for (const id of OPERATION_IDS) expect(WIRE[id], id).toEqual(wireOf(OPERATIONS[id]));
  // The flags say what the rows do: a list answers a page; identify is idempotent by the spec.
  expect(WIRE.listContacts[3] & WIRE_FLAGS.page).toBe(WIRE_FLAGS.page);
  expect(WIRE.identifyContact[3]).toBe(WIRE_FLAGS.body | WIRE_FLAGS.natural);
  expect(WIRE.retrievePost).toEqual(['GET', '/v1/posts/:postId', 'posts.retrieve', 0]);
});
