// Standard Webhooks signing (https://www.standardwebhooks.com): every attempt of a delivery carries
// `webhook-id` (the stable delivery id, the same on every attempt, for receivers to de-duplicate),
// `webhook-timestamp` (unix seconds of the attempt) and `webhook-signature` (`v1,<base64 HMAC-SHA256 of
// "id.timestamp.body">`). The secret is `whsec_<base64 key>`. Pure functions, no I/O.
import crypto from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';
/** Receivers should refuse a timestamp further than this from their clock (replay protection). */
export const DEFAULT_TOLERANCE_SECONDS = 5 * 60;

export class WebhookSecretError extends Error {}

/** A fresh secret: 32 random bytes in the `whsec_` form. */
export function generateSecret(): string {
  return SECRET_PREFIX + crypto.randomBytes(32).toString('base64');
}

/** The key bytes of a `whsec_<base64>` secret; throws a WebhookSecretError that never quotes the secret. */
export function secretKey(secret: string): Buffer {
  if (typeof secret !== 'string' || !secret.startsWith(SECRET_PREFIX)) {
    throw new WebhookSecretError('the webhook secret must have the form whsec_<base64>');
  }
  const encoded = secret.slice(SECRET_PREFIX.length);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded) || encoded.length % 4 === 1) {
    throw new WebhookSecretError('the webhook secret must have the form whsec_<base64> (the part after whsec_ is not base64)');
  }
  const key = Buffer.from(encoded, 'base64');
  if (key.length < 24) throw new WebhookSecretError(`the webhook secret key is too short (${key.length} bytes, at least 24)`);
  return key;
}

/** The `v1,<base64>` signature of one attempt. */
export function sign(secret: string | Buffer, id: string, timestamp: number, body: string): string {
  const key = typeof secret === 'string' ? secretKey(secret) : secret;
  const mac = crypto.createHmac('sha256', key).update(`${id}.${timestamp}.${body}`, 'utf8').digest('base64');
  return `v1,${mac}`;
}

export type SignatureHeaders = {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
};

/**
 * The three Standard Webhooks headers of one attempt made at `now`. Several secrets (a rotation: the old and
 * the new one valid together) give several signatures, space-separated (`v1,<a> v1,<b>`), as the standard
 * defines: a receiver that knows either secret verifies the request.
 */
export function signatureHeaders(secret: string | Buffer | readonly (string | Buffer)[], id: string, body: string, now: Date = new Date()): SignatureHeaders {
  const timestamp = Math.floor(now.getTime() / 1000);
  const secrets = Array.isArray(secret) ? secret : [secret as string | Buffer];
  const signature = secrets.map((s) => sign(s, id, timestamp, body)).join(' ');
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signature };
}

export type HeaderBag = Record<string, string | string[] | undefined> | Headers;

function header(headers: HeaderBag, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const bag = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(bag).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : bag[key];
  return Array.isArray(value) ? value.join(' ') : value;
}

export interface VerifyOptions {
  /** Largest accepted distance between the timestamp and `now`, in seconds (default 300; Infinity turns it off). */
  toleranceSeconds?: number;
  now?: Date;
}

/**
 * Whether a received request is authentic: its `webhook-signature` holds a `v1` signature (of possibly
 * several, space-separated) that matches the body under the secret, and its timestamp is recent.
 */
export function verifySignature(secret: string, headers: HeaderBag, body: string | Buffer, options: VerifyOptions = {}): boolean {
  const id = header(headers, 'webhook-id');
  const timestampText = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestampText || !signatures || !/^\d+$/.test(timestampText)) return false;
  const timestamp = Number(timestampText);
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const nowSeconds = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (Math.abs(nowSeconds - timestamp) > tolerance) return false;
  const expected = Buffer.from(sign(secret, id, timestamp, Buffer.isBuffer(body) ? body.toString('utf8') : body).slice(3), 'base64');
  return signatures.split(' ').some((candidate) => {
    const [version, value] = candidate.split(',', 2);
    if (version !== 'v1' || !value) return false;
    const given = Buffer.from(value, 'base64');
    return given.length === expected.length && crypto.timingSafeEqual(given, expected);
  });
}
