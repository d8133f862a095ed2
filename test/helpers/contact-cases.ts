// The contact validation cases of the REST conformance suite, shared with the MCP suite (which converts them
// to snake_case).
export const s = (n: number) => 'x'.repeat(n);
export const email = (len: number) => `${'a'.repeat(64)}@${'b'.repeat(len - 64 - 1 - 4)}.com`;
export const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));

/** [description, body, path of the first issue]: each must be 422 ERR_VALIDATION on create, identify and PATCH. */
export const INVALID_CONTACT_BODIES: [string, Record<string, unknown>, string][] = [
  ['empty externalUserId', { externalUserId: '' }, 'externalUserId'],
  ['externalUserId of 256 characters', { externalUserId: s(256) }, 'externalUserId'],
  ['externalUserId not a string', { externalUserId: 42 }, 'externalUserId'],
  ['email not an email', { email: 'not-an-email' }, 'email'],
  ['email longer than 320', { email: email(321) }, 'email'],
  ['email a number', { email: 5 }, 'email'],
  ['empty name', { name: '' }, 'name'],
  ['name of 201 characters', { name: s(201) }, 'name'],
  ['empty plan', { plan: '' }, 'plan'],
  ['plan of 101 characters', { plan: s(101) }, 'plan'],
  ['mrrCents over 100000000', { mrrCents: 100_000_001, currency: 'USD' }, 'mrrCents'],
  ['negative mrrCents', { mrrCents: -1, currency: 'USD' }, 'mrrCents'],
  ['fractional mrrCents', { mrrCents: 1.5, currency: 'USD' }, 'mrrCents'],
  ['mrrCents as a string', { mrrCents: '100', currency: 'USD' }, 'mrrCents'],
  ['lower-case currency', { mrrCents: 1, currency: 'usd' }, 'currency'],
  ['two-letter currency', { mrrCents: 1, currency: 'US' }, 'currency'],
  ['mrrCents without currency', { mrrCents: 100 }, 'currency'],
  ['currency without mrrCents', { currency: 'USD' }, 'mrrCents'],
  ['mrrCents set with currency null', { mrrCents: 100, currency: null }, 'currency'],
  ['metadata over 100 keys', { metadata: keys(101) }, 'metadata'],
  ['metadata an array', { metadata: [1, 2] }, 'metadata'],
  ['metadata a string', { metadata: 'x' }, 'metadata'],
  ['an unknown field', { externalUserID: 'typo' }, 'externalUserID'],
  ['source (not writable)', { source: 'identify' }, 'source'],
];
