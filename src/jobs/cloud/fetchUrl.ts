// A recording fetched from an http(s) URL (a presigned link to a bucket object), streamed to a file of this
// machine. The connection goes through the notification target policy (notifications/targetPolicy.ts, with
// the operator's SCRUBLINE_WEBHOOK_ALLOW): loopback, private, link-local and metadata addresses are refused
// on the address actually connected to, so a job cannot make the worker read internal services (SSRF).
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { pipeline } from 'node:stream/promises';
import { guardedLookup, osResolve } from '../notifications/transport.js';
import { ipLiteral, type TargetPolicy } from '../notifications/targetPolicy.js';
import { BlobUnavailableError } from '../../store/blobs/index.js';

/** Refused for good (a 4xx answer, an address the policy refuses, too large): trying again cannot help. */
export class FetchRefusedError extends Error {
  readonly permanent = true;
}

export async function fetchUrlToFile(url: URL, file: string, options: { policy: TargetPolicy; maxBytes: number; signal?: AbortSignal }): Promise<void> {
  const { policy } = options;
  const byName = policy.nameAllowed(url);
  const literal = ipLiteral(url.hostname);
  if (!byName && literal && !policy.addressAllowed(literal)) throw new FetchRefusedError('the recording URL points to an address that is not allowed (loopback, private, link-local or metadata)');
  const client = url.protocol === 'https:' ? https : http;
  const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
    const req = client.get(url, { agent: false, signal: options.signal, timeout: 30_000, lookup: guardedLookup(byName ? () => true : (a) => policy.addressAllowed(a), osResolve) }, resolve);
    req.on('timeout', () => req.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })));
    req.on('error', reject);
  }).catch((error: Error & { code?: string }) => {
    if (error.name === 'TargetNotAllowedError') throw new FetchRefusedError('the recording URL resolves to an address that is not allowed (loopback, private, link-local or metadata)');
    if (error.name === 'AbortError') throw error;
    throw new BlobUnavailableError(`the recording URL could not be reached (${error.code ?? error.message})`);
  });
  const status = response.statusCode ?? 0;
  if (status !== 200) {
    response.destroy();
    // The URL itself is not repeated: a presigned link's query is a credential.
    if (status >= 500 || status === 429) throw new BlobUnavailableError(`the recording URL answered ${status}`);
    throw new FetchRefusedError(`the recording URL answered ${status} (expired or not allowed?)`);
  }
  let bytes = 0;
  const counted = async function* (source: AsyncIterable<Buffer>) {
    for await (const chunk of source) {
      bytes += chunk.length;
      if (bytes > options.maxBytes) throw new FetchRefusedError(`the recording is larger than the limit of ${options.maxBytes} bytes`);
      yield chunk;
    }
  };
  await pipeline(response, counted, fs.createWriteStream(file, { mode: 0o600 }), { signal: options.signal });
}
