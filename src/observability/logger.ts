// Structured logs (pino). No API key, credential, query-string value or request body reaches a log line, at
// any level (trace included): requests are logged as method, path (query names only, never values) and
// status; every object logged is copied with its secrets censored, at any depth and whoever logs it (a
// library logging a request's headers at trace, e.g. @fastify/multipart's busboy options); errors are
// logged by message and stack, censored the same way.
import pino, { type Logger } from 'pino';
import { CREDENTIAL_FIELDS } from '../schema/credentials.js';
import { API_KEY_PREFIX } from '../store/apiKeys.js';

const CENSOR = '****';

/**
 * Keys whose values never reach a log line, compared in lower case: credential fields, API-key and auth
 * headers, the notification's auth headers, and what may hold a request's content (text, body, payload).
 */
const SECRET_KEYS: ReadonlySet<string> = new Set(
  [
    ...CREDENTIAL_FIELDS,
    'authorization',
    'proxy-authorization',
    'x-api-key',
    'api-key',
    'api_key',
    'apikey',
    'cookie',
    'set-cookie',
    'password',
    'secret',
    'auth_headers',
    'notification.auth_headers',
    'text',
    'body',
    'payload',
  ].map((k) => k.toLowerCase()),
);

/** A bearer or basic credential written inside a string (an error message quoting a header). */
const INLINE_CREDENTIAL = /\b(Bearer|Basic)\s+[^\s"',;]+/gi;
/**
 * An API key written anywhere in a string (pasted into a path, `DELETE /system/keys/<the key>`, or quoted in a
 * message). A key's visible prefix (its first 10 characters, as lists show it) is shorter and stays.
 */
const INLINE_API_KEY = new RegExp(`${API_KEY_PREFIX}[A-Za-z0-9_-]{8,}`, 'g');
/** A query parameter name worth keeping in a log: short, plain. Anything else is treated as a value. */
const PLAIN_NAME = /^[\w.\-[\]]{1,64}$/;
/** Nesting followed when censoring; deeper objects are replaced, not walked. */
const MAX_DEPTH = 8;

/** A URL (or path) with every query value replaced: `/a?api_key=x&text=y` → `/a?api_key=****&text=****`. */
export function loggableRequestUrl(rawUrl: string): string {
  const url = rawUrl.replace(INLINE_API_KEY, `${API_KEY_PREFIX}${CENSOR}`);
  const mark = url.indexOf('?');
  if (mark < 0) return url;
  const query = url
    .slice(mark + 1)
    .split('&')
    .filter((pair) => pair !== '')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? '' : pair.slice(0, eq);
      return PLAIN_NAME.test(name) ? `${name}=${CENSOR}` : CENSOR;
    });
  return `${url.slice(0, mark)}?${query.join('&')}`;
}

function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * A copy of a logged value with its secrets censored: secret keys at any depth, `url` fields without query
 * values, inline bearer credentials in strings. Only plain objects and arrays are walked (never changed in
 * place: a library may log the live request headers); other objects go to their serializers as they are.
 */
export function censorLogValue(value: unknown, key = '', depth = 0): unknown {
  if (key !== '' && SECRET_KEYS.has(key.toLowerCase())) return value === undefined || value === null ? value : CENSOR;
  if (typeof value === 'string') {
    const censored = value.replace(INLINE_CREDENTIAL, `$1 ${CENSOR}`).replace(INLINE_API_KEY, `${API_KEY_PREFIX}${CENSOR}`);
    return key === 'url' ? loggableRequestUrl(censored) : censored;
  }
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return depth >= MAX_DEPTH ? CENSOR : value.map((item) => censorLogValue(item, '', depth + 1));
  if (!isPlainObject(value)) return value;
  if (depth >= MAX_DEPTH) return CENSOR;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = censorLogValue(v, k, depth + 1);
  return out;
}

/** A request as logged: method, path with the query's names only, host and peer. No headers, no body. */
function requestSerializer(req: { method?: string; url?: string; host?: string; ip?: string; socket?: { remoteAddress?: string; remotePort?: number } }) {
  return {
    method: req.method,
    url: loggableRequestUrl(req.url ?? ''),
    host: req.host,
    remoteAddress: req.ip ?? req.socket?.remoteAddress,
    remotePort: req.socket?.remotePort,
  };
}

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'scrubline' },
      // Every logged object is copied censored before its serializers run.
      formatters: { log: (object) => censorLogValue(object) as Record<string, unknown> },
      serializers: {
        req: requestSerializer,
        err: (error: Error) => censorLogValue(pino.stdSerializers.err(error)),
      },
      // The msg string (and an error's message) may quote a header; bindings are written as given.
      hooks: {
        logMethod(args, method) {
          const censored = args.map((arg) => (typeof arg === 'string' ? (censorLogValue(arg) as string) : arg)) as Parameters<typeof method>;
          return method.apply(this, censored);
        },
      },
    },
    destination,
  );
}
