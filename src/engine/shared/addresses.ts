import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';

/**
 * The SSRF guard: which addresses a receiver may be. Only public unicast addresses pass; every range
 * below is refused (RFC 6890 special-purpose registries), and IPv6 forms that embed an IPv4 address
 * (IPv4-mapped, IPv4-compatible, NAT64, 6to4) are judged by the address they embed.
 */
const V4_BLOCKED: ReadonlyArray<readonly [string, number, string]> = [
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'carrier-grade NAT'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'],
  ['192.0.2.0', 24, 'reserved'],
  ['192.88.99.0', 24, 'reserved'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'reserved'],
  ['198.51.100.0', 24, 'reserved'],
  ['203.0.113.0', 24, 'reserved'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];

function v4ToInt(address: string): number {
  return address.split('.').reduce((acc, part) => acc * 256 + Number(part), 0);
}

const V4_RANGES = V4_BLOCKED.map(([base, bits, kind]) => {
  const size = 2 ** (32 - bits);
  const start = Math.floor(v4ToInt(base) / size) * size;
  return { start, end: start + size - 1, kind };
});

/** Eight 16-bit groups of an IPv6 address (with any dotted IPv4 tail expanded). */
function v6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const zone = text.indexOf('%');
  if (zone >= 0) text = text.slice(0, zone);
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tail) {
    const n = v4ToInt(tail[1]!);
    text = `${text.slice(0, -tail[1]!.length)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head, rest] = text.split('::') as [string, string | undefined];
  const parse = (s: string) => (s === '' ? [] : s.split(':').map((g) => parseInt(g, 16)));
  const a = parse(head);
  if (rest === undefined) return a;
  const b = parse(rest);
  return [...a, ...new Array<number>(8 - a.length - b.length).fill(0), ...b];
}

function embeddedV4(g: number[], hi: number, lo: number): string {
  return `${g[hi]! >> 8}.${g[hi]! & 255}.${g[lo]! >> 8}.${g[lo]! & 255}`;
}

/**
 * Why an address is not a public unicast address (`"loopback"`, `"private"`...), or null when it is.
 * `address` is an IPv4 or IPv6 literal without brackets.
 */
export function nonPublicReason(address: string): string | null {
  const family = isIP(address);
  if (family === 4) {
    const n = v4ToInt(address);
    return V4_RANGES.find((r) => n >= r.start && n <= r.end)?.kind ?? null;
  }
  if (family !== 6) return 'not an IP address';
  const g = v6Groups(address);
  const zeroPrefix = (count: number) => g.slice(0, count).every((x) => x === 0);
  if (zeroPrefix(8)) return 'unspecified';
  if (zeroPrefix(7) && g[7] === 1) return 'loopback';
  // ::ffff:a.b.c.d (IPv4-mapped) and ::a.b.c.d (IPv4-compatible, deprecated): judge the IPv4 address.
  if (zeroPrefix(5) && g[5] === 0xffff) return nonPublicReason(embeddedV4(g, 6, 7)) ?? null;
  if (zeroPrefix(6)) return nonPublicReason(embeddedV4(g, 6, 7)) ?? 'reserved';
  // 64:ff9b::/96, the well-known NAT64 prefix: judge the IPv4 address; 64:ff9b:1::/48 is local-use NAT64.
  if (g[0] === 0x64 && g[1] === 0xff9b) {
    if (g[2] === 1) return 'private';
    if (g[2] === 0 && g[3] === 0 && g[4] === 0 && g[5] === 0) return nonPublicReason(embeddedV4(g, 6, 7));
    return 'reserved';
  }
  // 2002::/16, 6to4: the IPv4 address sits in groups 1 and 2.
  if (g[0] === 0x2002) return nonPublicReason(embeddedV4(g, 1, 2));
  const first = g[0]!;
  if ((first & 0xfe00) === 0xfc00) return 'private'; // fc00::/7 unique local
  if ((first & 0xffc0) === 0xfe80) return 'link-local'; // fe80::/10
  if ((first & 0xffc0) === 0xfec0) return 'private'; // fec0::/10 site-local (deprecated)
  if ((first & 0xff00) === 0xff00) return 'multicast'; // ff00::/8
  if (first === 0x2001 && g[1]! < 0x200) return 'reserved'; // 2001::/23 protocol assignments, Teredo included
  if (first === 0x2001 && g[1] === 0x0db8) return 'reserved'; // documentation
  if (first === 0x0100 && g[1] === 0 && g[2] === 0 && g[3] === 0) return 'reserved'; // 100::/64 discard
  if ((first & 0xe000) !== 0x2000) return 'reserved'; // outside 2000::/3, the global unicast space
  return null;
}

/** An address a receiver URL may not reach, and why. */
export class BlockedAddressError extends Error {
  readonly code = 'ERR_BLOCKED_ADDRESS';
  constructor(
    readonly host: string,
    readonly address: string,
    readonly reason: string,
  ) {
    super(
      host === address ? `${address} is a ${reason} address` : `${host} resolves to ${address}, a ${reason} address`,
    );
    this.name = 'BlockedAddressError';
  }
}

/** The URL's host without IPv6 brackets; WHATWG URL has already normalized `2130706433` and `0x7f.1`. */
export function urlHost(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `dns.lookup` replacement for the delivery agent's connections: resolves as usual, refuses when any
 * resolved address is not public, and hands the socket exactly the addresses it checked, so the
 * connection is pinned to them and a second resolution (DNS rebinding) never happens.
 */
export function guardedLookup(
  hostname: string,
  options: { all?: boolean; family?: number | string },
  callback: LookupCallback,
): void {
  dnsLookup(hostname, { ...options, all: true } as { all: true }, (err, addresses) => {
    if (err) return callback(err, options.all ? [] : '', 0);
    for (const a of addresses) {
      const reason = nonPublicReason(a.address);
      if (reason)
        return callback(
          new BlockedAddressError(hostname, a.address, reason) as NodeJS.ErrnoException,
          options.all ? [] : '',
          0,
        );
    }
    if (options.all) return callback(null, addresses);
    const first = addresses[0];
    if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0);
    callback(null, first.address, first.family);
  });
}

/**
 * Registration-time check of a receiver URL: an IP literal must be public; a name must resolve, and
 * every address it resolves to must be public. Returns the refusal message, or null.
 */
export async function checkReceiverUrl(value: string): Promise<string | null> {
  const host = urlHost(new URL(value));
  if (isIP(host)) {
    const reason = nonPublicReason(host);
    return reason ? `url host ${host} is a ${reason} address` : null;
  }
  return new Promise((resolve) => {
    guardedLookup(host, { all: true }, (err) => {
      if (!err) return resolve(null);
      if (err instanceof BlockedAddressError) return resolve(`url host ${err.message}`);
      resolve(`url host ${host} does not resolve (${err.code ?? err.message})`);
    });
  });
}
