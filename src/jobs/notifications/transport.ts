// One HTTP request to a notification target, with the target policy enforced where it cannot be dodged: on
// the address the connection is actually made to. A literal address is checked before connecting; a name
// is resolved by our own lookup, which refuses the whole request when any address it resolves to is
// outside the policy, so DNS rebinding (a public answer at submit, 127.0.0.1 at send) does not pass.
// Each request has a connection of its own (no pooling), so every connection goes through the lookup.
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { ipLiteral, TargetNotAllowedError, type TargetPolicy } from './targetPolicy.js';

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to every address it has (default: the OS resolver, as net.connect would use). */
export type Resolve = (hostname: string) => Promise<ResolvedAddress[]>;

export const osResolve: Resolve = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

export interface SendRequest {
  method: string;
  headers: Headers;
  body: string;
  signal: AbortSignal;
  policy: TargetPolicy;
  resolve?: Resolve;
}

export interface SendResponse {
  statusCode: number;
  retryAfter: string | null;
}

/** A net lookup that answers only addresses `allowed` accepts (all of them, or the request is refused). */
export function guardedLookup(allowed: (address: string) => boolean, resolve: Resolve): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (found) => {
        const wanted = options.family === 4 || options.family === 6 ? found.filter((a) => a.family === options.family) : found;
        if (wanted.length === 0) {
          callback(Object.assign(new Error('name did not resolve'), { code: 'ENOTFOUND' }), '', 0);
        } else if (found.some((a) => !allowed(a.address))) {
          callback(new TargetNotAllowedError(), '', 0);
        } else if (options.all) {
          (callback as unknown as (err: null, addresses: ResolvedAddress[]) => void)(null, wanted);
        } else {
          callback(null, wanted[0].address, wanted[0].family);
        }
      },
      (error: Error) => callback(error as NodeJS.ErrnoException, '', 0),
    )
      // A throw from net's own callback must not become an unhandled rejection; the attempt's timeout ends it.
      .catch(() => {});
  };
}

/**
 * Send one request and answer its status once the response headers came (the body is discarded).
 * Rejects with TargetNotAllowedError for a target outside the policy, with the request's error otherwise.
 * Redirects are not followed.
 */
export function sendRequest(url: string, request: SendRequest): Promise<SendResponse> {
  const target = new URL(url);
  const byName = request.policy.nameAllowed(target);
  const literal = ipLiteral(target.hostname);
  // A literal address never reaches a lookup: it is checked here.
  if (!byName && literal && !request.policy.addressAllowed(literal)) return Promise.reject(new TargetNotAllowedError());
  const client = target.protocol === 'https:' ? https : http;
  const headers: Record<string, string> = Object.fromEntries(request.headers);
  headers['content-length'] = String(Buffer.byteLength(request.body));
  return new Promise((resolve, reject) => {
    const req = client.request(
      target,
      {
        method: request.method,
        headers,
        agent: false,
        signal: request.signal,
        // A name on the allow-list is trusted whatever it resolves to.
        lookup: guardedLookup(byName ? () => true : (address) => request.policy.addressAllowed(address), request.resolve ?? osResolve),
      },
      (res) => {
        resolve({ statusCode: res.statusCode ?? 0, retryAfter: (res.headers['retry-after'] as string | undefined) ?? null });
        // Nothing of the answer is kept; the connection is closed rather than drained.
        res.on('error', () => {});
        res.destroy();
      },
    );
    req.on('error', reject);
    req.end(request.body);
  });
}
