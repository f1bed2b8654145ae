// Which hosts the service may reach on a request's behalf: notification targets, recording URLs and the S3
// endpoints of clients' buckets (jobs/cloud/buckets.ts) share this one policy and its allow-list.
// Which hosts a notification may reach. A webhook url is chosen by whoever submits a job, so without a policy
// the service would call, on their behalf, anything it can reach: loopback, the private network, the cloud's
// metadata endpoint. By default only public addresses are allowed; an operator lists the self-hosted
// receivers on a private network (SCRUBLINE_WEBHOOK_ALLOW: CIDRs and host[:port] names). The policy is
// applied twice: to the url when a job is submitted (a literal address or an obviously internal name is a
// 400 at once) and to every address the name resolves to when the connection is made (transport.ts), so a
// name that resolves to an internal address, now or after a DNS change, is refused too.
import net from 'node:net';

/** A notification target outside what the policy allows. Its message names no address. */
export class TargetNotAllowedError extends Error {
  readonly code = 'ETARGETNOTALLOWED';
  constructor(message = 'notification target is not allowed') {
    super(message);
    this.name = 'TargetNotAllowedError';
  }
}

/** A malformed SCRUBLINE_WEBHOOK_ALLOW entry. */
export class AllowListError extends Error {}

// Never public: IPv4-mapped IPv6 (::ffff:a.b.c.d) is checked against the IPv4 rules by BlockList itself.
const BLOCKED_V4: readonly [string, number][] = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // RFC 1918
  ['100.64.0.0', 10], // CGNAT (also Alibaba's metadata address 100.100.100.200)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, the cloud metadata address 169.254.169.254
  ['172.16.0.0', 12], // RFC 1918
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.168.0.0', 16], // RFC 1918
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and 255.255.255.255 broadcast
];
const BLOCKED_V6: readonly [string, number][] = [
  ['::', 96], // unspecified, loopback (::1), IPv4-compatible
  ['64:ff9b::', 96], // NAT64: an IPv4 address behind a translator
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard
  ['2001::', 32], // Teredo (embeds an IPv4 address)
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4 (embeds an IPv4 address)
  ['fc00::', 7], // unique local (also AWS's metadata address fd00:ec2::254)
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
];

/** Names that only ever mean something inside a network: refused at submit unless allow-listed. */
const INTERNAL_SUFFIXES = ['.localhost', '.local', '.localdomain', '.internal', '.intranet', '.lan', '.home.arpa', '.arpa', '.svc'];

type HostEntry = { host: string; port?: number; subdomains: boolean };

/** An address as net.isIP wants it: no brackets, no zone id, lower case; '' when it is not an IP address. */
export function ipLiteral(host: string): string {
  const bare = host.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '').toLowerCase();
  return net.isIP(bare) ? bare : '';
}

function familyOf(address: string): 'ipv4' | 'ipv6' {
  return net.isIPv4(address) ? 'ipv4' : 'ipv6';
}

/** A host name as compared: lower case, no trailing dot, no brackets. */
function normalName(host: string): string {
  return host.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '').toLowerCase();
}

function defaultPort(url: URL): number {
  return url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
}

/** Split SCRUBLINE_WEBHOOK_ALLOW (comma or space separated) and check each entry. */
export function parseAllowList(raw: string | undefined): string[] {
  const entries = (raw ?? '').split(/[\s,]+/).filter((e) => e !== '');
  new TargetPolicy(entries); // throws AllowListError on a malformed entry
  return entries;
}

export class TargetPolicy {
  private readonly blocked = new net.BlockList();
  private readonly allowed = new net.BlockList();
  private readonly hosts: HostEntry[] = [];

  constructor(allow: readonly string[] = []) {
    for (const [address, prefix] of BLOCKED_V4) this.blocked.addSubnet(address, prefix, 'ipv4');
    for (const [address, prefix] of BLOCKED_V6) this.blocked.addSubnet(address, prefix, 'ipv6');
    for (const entry of allow) this.addAllowed(entry);
  }

  private addAllowed(entry: string): void {
    const cidr = /^(.+)\/(\d{1,3})$/.exec(entry);
    if (cidr) {
      const address = ipLiteral(cidr[1]);
      const prefix = Number(cidr[2]);
      if (!address || prefix > (net.isIPv4(address) ? 32 : 128)) throw new AllowListError(`SCRUBLINE_WEBHOOK_ALLOW: "${entry}" is not a valid CIDR`);
      this.allowed.addSubnet(address, prefix, familyOf(address));
      return;
    }
    const address = ipLiteral(entry);
    if (address) {
      this.allowed.addAddress(address, familyOf(address));
      return;
    }
    // host, host:port, [v6]:port, *.suffix
    const hostPort = /^(\[[^\]]+\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(entry);
    const port = hostPort?.[2] === undefined ? undefined : Number(hostPort[2]);
    const name = hostPort ? normalName(hostPort[1]) : '';
    const subdomains = name.startsWith('*.');
    const bare = subdomains ? name.slice(2) : name;
    if (!hostPort || (port !== undefined && (port < 1 || port > 65535)) || !(ipLiteral(bare) || /^[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*$/.test(bare))) {
      throw new AllowListError(`SCRUBLINE_WEBHOOK_ALLOW: "${entry}" is neither a CIDR, an address nor a host[:port]`);
    }
    this.hosts.push({ host: ipLiteral(bare) || bare, port, subdomains });
  }

  /** Whether a connection may be made to this (resolved) address. */
  addressAllowed(address: string): boolean {
    const ip = ipLiteral(address);
    if (!ip) return false;
    const family = familyOf(ip);
    return this.allowed.check(ip, family) || !this.blocked.check(ip, family);
  }

  /** Whether the url's host[:port] is allow-listed by name: its addresses are then not checked. */
  nameAllowed(url: URL): boolean {
    const host = ipLiteral(url.hostname) || normalName(url.hostname);
    const port = defaultPort(url);
    return this.hosts.some(
      (entry) => (entry.subdomains ? host.endsWith(`.${entry.host}`) : host === entry.host) && (entry.port === undefined || entry.port === port),
    );
  }

  /**
   * The check at submit: a literal address outside the policy, or a name that can only be internal
   * (localhost, a single label, .internal, .local...), is refused. Other names are checked when the
   * connection is made, on the addresses they resolve to then.
   */
  checkUrl(url: URL, label = 'notification url'): void {
    if (this.nameAllowed(url)) return;
    const address = ipLiteral(url.hostname);
    if (address) {
      if (!this.addressAllowed(address)) {
        throw new TargetNotAllowedError(`${label} must not point to a loopback, private, link-local, multicast or metadata address`);
      }
      return;
    }
    const name = normalName(url.hostname);
    if (name === 'localhost' || !name.includes('.') || INTERNAL_SUFFIXES.some((suffix) => name.endsWith(suffix))) {
      throw new TargetNotAllowedError(`${label} must not name an internal host (localhost, a single-label name, .internal, .local...)`);
    }
  }
}

/** The default: public addresses only. */
export const PUBLIC_ONLY = new TargetPolicy();
