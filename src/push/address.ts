// Whether a webhook address reaches this service itself. A channel is opened
// by any token with a watch scope, read-only ones included, and its messages are POSTs the
// service sends on its own: pointed at `/__svc/reset` they would wipe every tester's workspace.
//
// The rule, on the WHATWG URL parser's canonical host (it already turns `127.1`, `2130706433`,
// `0x7f.0.0.1` and `017700000001` into `127.0.0.1`, `[0:0:0:0:0:0:0:1]` into `[::1]`, and lower-
// cases names), with the scheme's default port when the address names none:
// - the base URL's host with the base URL's port or the bound port;
// - with the bound port: a loopback address (127.0.0.0/8, ::1), an unspecified one (0.0.0.0/8,
//   `::`; Linux connects those to the local host), any of them written IPv4-mapped
//   (`[::ffff:127.0.0.1]`), the name `localhost` or any name under it (RFC 6761 §6.3), each also
//   with a trailing dot, the bound host itself, and, when the service is bound to every interface,
//   the address of any local interface.
// Loopback addresses with another port stay allowed: that is where test webhooks listen.
// A name that merely resolves to one of these addresses is caught when a message is sent, on the
// address the name resolves to (see resolvedAddressReachesService and src/push/webhook-request.ts).

const { BlockList, isIP } = process.getBuiltinModule('node:net');
const { networkInterfaces } = process.getBuiltinModule('node:os');

/** Where the service answers: its public base URL and the host and port it is bound to (an App is one). */
export interface ServiceAddress {
  baseUrl: string;
  host: string;
  port: number;
}

// IPv4 rules also match IPv4-mapped IPv6 addresses (net.BlockList compares them as IPv4). Made
// by the first check, not at start-up: a BlockList loads Node's socket-address internals.
let localHost: InstanceType<typeof BlockList> | undefined;
function localHostList(): InstanceType<typeof BlockList> {
  if (localHost !== undefined) return localHost;
  localHost = new BlockList();
  localHost.addSubnet('127.0.0.0', 8, 'ipv4');
  localHost.addSubnet('0.0.0.0', 8, 'ipv4');
  localHost.addAddress('::1', 'ipv6');
  localHost.addAddress('::', 'ipv6');
  return localHost;
}

const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443 };

/** The port a connection to this address goes to. */
export function effectivePort(url: URL): number {
  return url.port === '' ? (DEFAULT_PORTS[url.protocol] ?? 0) : Number(url.port);
}

/** A URL hostname compared as an address: IPv6 brackets and a trailing root dot removed. */
function bareHost(hostname: string): string {
  const host = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  return host.endsWith('.') ? host.slice(0, -1) : host;
}

/** The bound host (`--host`) as the URL parser would write it, so `0` and `0.0.0.0` compare equal. */
function canonicalHost(host: string): string {
  try {
    return bareHost(new URL(`http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}/`).hostname);
  } catch {
    return host.toLowerCase();
  }
}

function isLocalHostIp(ip: string): boolean {
  const family = isIP(ip);
  return family !== 0 && localHostList().check(ip, family === 4 ? 'ipv4' : 'ipv6');
}

function isWildcard(host: string): boolean {
  return host === '0.0.0.0' || host === '::';
}

function isInterfaceAddress(ip: string): boolean {
  return Object.values(networkInterfaces()).some((list) => list?.some((entry) => canonicalHost(entry.address) === ip));
}

/** `::ffff:a.b.c.d` as `a.b.c.d`, so the bound host matches in either spelling. */
function unmapped(ip: string): string {
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(ip);
  if (!mapped) return ip;
  const high = parseInt(mapped[1] as string, 16);
  const low = parseInt(mapped[2] as string, 16);
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/** Whether a host (a canonical IP or name, without brackets) on the bound port is this service. */
function isServiceHost(host: string, service: ServiceAddress): boolean {
  const bound = canonicalHost(service.host);
  const ip = unmapped(host);
  if (ip === 'localhost' || ip.endsWith('.localhost') || ip === bound || isLocalHostIp(ip)) return true;
  return isWildcard(bound) && isIP(ip) !== 0 && isInterfaceAddress(ip);
}

/** Whether an address, parsed by the WHATWG URL parser, reaches this service itself. */
export function reachesService(address: URL, service: ServiceAddress): boolean {
  const port = effectivePort(address);
  const host = bareHost(address.hostname);
  if (service.baseUrl !== '') {
    const base = new URL(service.baseUrl);
    if (host === bareHost(base.hostname) && (port === effectivePort(base) || port === service.port)) return true;
  }
  return port === service.port && isServiceHost(host, service);
}

/** Whether the IP a webhook host name resolved to, with the address's port, is this service. */
export function resolvedAddressReachesService(ip: string, port: number, service: ServiceAddress): boolean {
  return port === service.port && isServiceHost(canonicalHost(ip), service);
}
