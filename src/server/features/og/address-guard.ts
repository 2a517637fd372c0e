// Which addresses a link preview may fetch. The backend fetches URLs that users type, so
// without this anyone could make it read its own admin pages, the cloud metadata service
// (169.254.169.254) or anything else on the private network (server-side request forgery).
// Every host name is resolved first and every address it resolves to is checked; the
// connection then goes to the checked address, so DNS cannot answer differently in between.
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { ApiError } from '../../http/errors';

const BLOCKED = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network", including the unspecified 0.0.0.0
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata services
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  BLOCKED.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) {
  BLOCKED.addSubnet(network, prefix, 'ipv6');
}

/** An IPv4 address hidden in an IPv6 one (::ffff:a.b.c.d, NAT64 64:ff9b::a.b.c.d), if any. */
function embeddedIpv4(address: string): string | undefined {
  const match = /^(?:::ffff:|64:ff9b::)(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(address);
  if (!match) return undefined;
  if (match[1]) return match[1];
  const high = parseInt(match[2] ?? '0', 16);
  const low = parseInt(match[3] ?? '0', 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

export function isPublicAddress(address: string): boolean {
  const version = isIP(address);
  if (version === 4) return !BLOCKED.check(address, 'ipv4');
  if (version !== 6) return false;
  const v4 = embeddedIpv4(address);
  if (v4) return !BLOCKED.check(v4, 'ipv4');
  return !BLOCKED.check(address, 'ipv6');
}

export function refusedAddress(host: string, address: string): ApiError {
  const via = host === address ? '' : ` (${host} resolves to ${address})`;
  return ApiError.input(`link previews of private, loopback or link-local addresses are not allowed${via}`);
}

/**
 * A `lookup` for http.request that refuses a host if any of its addresses is not public (unless
 * `allowPrivate`). It answers in whichever form the caller asked for (`all` or a single address).
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname: string, options: LookupOptions, callback) => {
    dnsLookup(hostname, { all: true, family: options.family ?? 0 }, (error, addresses) => {
      if (error) return callback(error, '');
      const list = addresses as LookupAddress[];
      const bad = allowPrivate ? undefined : list.find((entry) => !isPublicAddress(entry.address));
      if (bad) return callback(refusedAddress(hostname, bad.address) as unknown as NodeJS.ErrnoException, '');
      const first = list[0];
      if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '');
      if (options.all) return callback(null, list);
      callback(null, first.address, first.family);
    });
  };
}
