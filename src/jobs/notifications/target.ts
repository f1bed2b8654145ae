// Where a notification goes, checked before anything is stored: an http(s) url, POST or PUT, and well-formed
// "Name: value" auth header lines. The messages name what is wrong without quoting header values.
import { PUBLIC_ONLY, TargetNotAllowedError, type TargetPolicy } from './targetPolicy.js';

export type NotificationMethod = 'POST' | 'PUT';

export class NotificationTargetError extends Error {
  constructor(
    message: string,
    /** The field at fault: `url`, `method` or `auth_headers/<index>`. */
    readonly field: string,
  ) {
    super(message);
  }
}

/** Headers the outbox sets itself; an auth header line may not replace them. */
export const RESERVED_HEADERS: ReadonlySet<string> = new Set([
  'webhook-id', 'webhook-timestamp', 'webhook-signature', 'content-type', 'content-length', 'user-agent', 'host',
  'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'te', 'trailer', 'expect',
]);

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// Visible ASCII, spaces and tabs, and obs-text; no CR, LF or NUL.
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

export function checkUrl(url: unknown): URL {
  if (typeof url !== 'string' || url.trim() === '') throw new NotificationTargetError('notification url is missing', 'url');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new NotificationTargetError('notification url is not a valid absolute URL', 'url');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new NotificationTargetError(`notification url must use http or https, not ${parsed.protocol.replace(/:$/, '')}`, 'url');
  }
  if (parsed.username || parsed.password) {
    throw new NotificationTargetError('notification url must not carry credentials; send them as auth_headers', 'url');
  }
  return parsed;
}

export function checkMethod(method: unknown): NotificationMethod {
  if (method === undefined || method === null || method === '') return 'POST';
  const upper = typeof method === 'string' ? method.toUpperCase() : '';
  if (upper !== 'POST' && upper !== 'PUT') throw new NotificationTargetError('notification method must be POST or PUT', 'method');
  return upper;
}

/** Split and check one "Name: value" line; returns the name and the (trimmed) value. */
export function parseHeaderLine(line: unknown, index = 0): [string, string] {
  const field = `auth_headers/${index}`;
  if (typeof line !== 'string') throw new NotificationTargetError(`auth header ${index} must be a "Name: value" string`, field);
  const colon = line.indexOf(':');
  if (colon <= 0) throw new NotificationTargetError(`auth header ${index} must have the form "Name: value"`, field);
  const name = line.slice(0, colon).trim();
  const value = line.slice(colon + 1).trim();
  if (!TOKEN.test(name)) throw new NotificationTargetError(`auth header ${index} has an invalid name`, field);
  if (RESERVED_HEADERS.has(name.toLowerCase())) {
    throw new NotificationTargetError(`auth header ${index} (${name}) is set by the service and cannot be given`, field);
  }
  if (!FIELD_VALUE.test(value)) throw new NotificationTargetError(`auth header ${index} (${name}) has an invalid value (control characters)`, field);
  return [name, value];
}

export interface NotificationTarget {
  url: string;
  method: NotificationMethod;
  /** The lines as given (clear text), checked. */
  authHeaders: string[];
}

/**
 * Check a notification target as a request gives it (`url`, `method`, `auth_headers` in clear), so that an
 * API route can refuse a bad one with 400 before the job is accepted: its form, and its host against the
 * policy (a literal internal address or internal name; names are checked again, resolved, at each send).
 * Throws NotificationTargetError.
 */
export function validateNotificationTarget(
  target: { url: unknown; method?: unknown; authHeaders?: unknown },
  policy: TargetPolicy = PUBLIC_ONLY,
): NotificationTarget {
  const parsed = checkUrl(target.url);
  try {
    policy.checkUrl(parsed);
  } catch (error) {
    if (error instanceof TargetNotAllowedError) throw new NotificationTargetError(error.message, 'url');
    throw error;
  }
  const url = parsed.toString();
  const method = checkMethod(target.method);
  const lines = target.authHeaders ?? [];
  if (!Array.isArray(lines)) throw new NotificationTargetError('auth_headers must be an array of "Name: value" strings', 'auth_headers');
  lines.forEach((line, index) => parseHeaderLine(line, index));
  return { url, method, authHeaders: lines as string[] };
}

/**
 * The url as records and responses show it: no userinfo, the query (and fragment) masked, which is where
 * hook urls usually carry their tokens: `https://hooks.example.com/path?…`. The full url stays server-side.
 */
export function maskedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const hidden = parsed.search !== '' || parsed.hash !== '';
    parsed.username = '';
    parsed.password = '';
    parsed.search = '';
    parsed.hash = '';
    return hidden ? `${parsed.toString()}?…` : parsed.toString();
  } catch {
    return '(invalid url)';
  }
}

/** The url as it may appear in logs: origin only (paths and queries of hook urls often carry tokens). */
export function loggableUrl(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '(invalid url)';
  }
}
