// What a web page of another origin could make a browser send to this service, refused while the API is served
// without a key (auth.ts): a loopback client without a key has full access, and a browser on this machine is
// such a client for any page it opens.
// - DNS rebinding: a page at attacker.example whose name is re-pointed to 127.0.0.1 reads the answers as its own
//   origin. Its requests carry `Host: attacker.example`, so only names that cannot be re-pointed are served:
//   localhost (and *.localhost, which browsers resolve to loopback themselves), the name in HOST, the names in
//   SCRUBLINE_ALLOWED_HOSTS; and IP addresses (a page can only be re-pointed through a name).
// - Cross-site request forgery: a page may post forms (urlencoded, multipart, text/plain) and body-less requests to
//   any origin, and open WebSockets to it, without reading the answer; the write happens anyway. Browsers say
//   where such a request comes from (`Sec-Fetch-Site`, `Origin`, which no page can set), so a write or a WebSocket
//   from another origin is refused. A client that sends neither header is not a browser (curl, an SDK): no page
//   can make it send anything.
import net from 'node:net';
import type { FastifyRequest } from 'fastify';

/** Methods that change something (a GET or HEAD must not, and a page cannot read their answers cross-origin). */
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Host names accepted besides localhost and IP addresses: exact names and `*.suffix` patterns (lower-case), or `*`. */
export interface HostPolicy {
  /** HOST (the listen address), when it is a name. */
  listenHost: string;
  /** SCRUBLINE_ALLOWED_HOSTS. */
  allowedHosts: string[];
}

/** The name and port of a Host header or an origin's authority (`[::1]:8080` → `::1`, `8080`), lower-case. */
export function splitAuthority(authority: string): { hostname: string; port: string | undefined } | undefined {
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::([0-9]{1,5}))?$/i.exec(authority.trim());
  if (!match) return undefined;
  const hostname = match[1].replace(/^\[|\]$/g, '').toLowerCase().replace(/\.$/, '');
  return { hostname, port: match[2] };
}

function nameMatches(hostname: string, pattern: string): boolean {
  if (pattern === '*') return true;
  if (pattern.startsWith('*.')) return hostname.endsWith(pattern.slice(1)) && hostname.length > pattern.length - 1;
  return hostname === pattern;
}

/** Why a request's Host is refused (a name that could be any site's), or undefined when it is served. */
export function misdirectedHost(hostHeader: string | undefined, policy: HostPolicy): string | undefined {
  // HTTP/1.0 without Host: not a browser.
  if (hostHeader === undefined || hostHeader === '') return undefined;
  const authority = splitAuthority(hostHeader);
  if (!authority) return 'The Host header is not a host name.';
  const { hostname } = authority;
  if (net.isIP(hostname) !== 0) return undefined;
  if (hostname === 'localhost' || hostname.endsWith('.localhost')) return undefined;
  const listen = policy.listenHost.toLowerCase();
  if (net.isIP(listen) === 0 && hostname === listen) return undefined;
  if (policy.allowedHosts.some((pattern) => nameMatches(hostname, pattern))) return undefined;
  return (
    `This service does not answer to the name "${hostname}": a page whose name points here (DNS rebinding) must not ` +
    'reach it. Use localhost or an IP address, or list the name in SCRUBLINE_ALLOWED_HOSTS.'
  );
}

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443', 'ws:': '80', 'wss:': '443' };

/** Whether an `Origin` header names the origin this request was sent to (the same host and port as its Host). */
function sameOrigin(origin: string, hostHeader: string | undefined): boolean {
  if (!hostHeader) return false;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  const host = splitAuthority(hostHeader);
  const from = splitAuthority(url.host);
  if (!host || !from) return false;
  const defaultPort = DEFAULT_PORTS[url.protocol];
  if (!defaultPort) return false;
  return host.hostname === from.hostname && (host.port ?? defaultPort) === (from.port ?? defaultPort);
}

/** Why a write (or a WebSocket) would be one a page of another origin sent, or undefined when it is not. */
export function crossOriginWrite(request: FastifyRequest): string | undefined {
  const upgrade = String(request.headers.upgrade ?? '').toLowerCase() === 'websocket';
  if (!WRITES.has(request.method) && !upgrade) return undefined;
  const what = upgrade ? 'A WebSocket' : 'A write';
  const site = request.headers['sec-fetch-site'];
  if (typeof site === 'string' && site !== '') {
    // same-origin: this service's own pages (the console); none: the user's own action (a typed address).
    if (site === 'same-origin' || site === 'none') return undefined;
    return `${what} from another site's page (Sec-Fetch-Site: ${site}) is refused while the API is served without a key.`;
  }
  const origin = request.headers.origin;
  if (origin === undefined) return undefined;
  if (sameOrigin(origin, request.headers.host)) return undefined;
  return `${what} from a page of another origin (Origin: ${origin.slice(0, 200)}) is refused while the API is served without a key.`;
}
