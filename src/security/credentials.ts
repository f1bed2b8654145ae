// Credential fields inside records: sealed before they are stored, masked whenever a record leaves the
// service. Both walk a JSON value and touch only fields named in CREDENTIAL_FIELDS (at any depth) and the
// values of notification auth_headers ("Name: value"), which carry credentials too.
import { isCredentialField } from '../schema/credentials.js';
import type { SecretBox } from './secretBox.js';

const MASK = '****';
/** Values shorter than this are masked whole: their last four characters would give most of them away. */
const MIN_LENGTH_TO_SHOW_TAIL = 12;

export function maskValue(plain: string): string {
  return plain.length >= MIN_LENGTH_TO_SHOW_TAIL ? MASK + plain.slice(-4) : MASK;
}

/** Mask the value part of an HTTP header line, keeping its name. */
export function maskHeaderLine(line: string): string {
  const colon = line.indexOf(':');
  if (colon < 0) return maskValue(line);
  return `${line.slice(0, colon)}: ${maskValue(line.slice(colon + 1).trim())}`;
}

type Json = unknown;

/** Marks a sealed credential whose value was not a string (an array, object, number...), to restore its type. */
const JSON_TAG = '\u0000json:';

function mapCredentials(
  value: Json,
  onCredential: (value: Json) => Json,
  onHeaderLine: (line: string) => string,
): Json {
  if (Array.isArray(value)) return value.map((item) => mapCredentials(item, onCredential, onHeaderLine));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, Json> = {};
  for (const [key, field] of Object.entries(value as Record<string, Json>)) {
    if (isCredentialField(key) && field !== null) {
      // Whatever its shape, a value under a credential name is a secret as a whole.
      out[key] = onCredential(field);
    } else if (key === 'auth_headers' && Array.isArray(field)) {
      out[key] = field.map((line) => (typeof line === 'string' ? onHeaderLine(line) : line));
    } else {
      out[key] = mapCredentials(field, onCredential, onHeaderLine);
    }
  }
  return out;
}

function toPlain(value: Json): string {
  return typeof value === 'string' ? value : JSON_TAG + JSON.stringify(value);
}

function fromPlain(plain: string): Json {
  return plain.startsWith(JSON_TAG) ? JSON.parse(plain.slice(JSON_TAG.length)) : plain;
}

/** Decrypt every sealed credential value; for the service's own use (e.g. calling a notification url). */
export function openCredentials<T>(record: T, box: SecretBox): T {
  const open = (v: string) => (box.isSealed(v) ? box.open(v) : v);
  return mapCredentials(record, (v) => (typeof v === 'string' && box.isSealed(v) ? fromPlain(box.open(v)) : v), open) as T;
}

/** The form a record takes in any response: credentials masked, never in clear, never sealed text. */
export function maskCredentials<T>(record: T, box: SecretBox): T {
  const reveal = (v: string) => {
    if (!box.isSealed(v)) return v;
    try {
      return box.open(v);
    } catch {
      return ''; // sealed with another key: nothing of it can be shown
    }
  };
  return mapCredentials(
    record,
    (v) => {
      const plain = typeof v === 'string' ? reveal(v) : JSON_TAG;
      // Only a string's tail is ever shown; other shapes are masked whole.
      return plain.startsWith(JSON_TAG) ? MASK : maskValue(plain);
    },
    (line) => maskHeaderLine(reveal(line)),
  ) as T;
}

/**
 * Both forms of a record that arrives in clear, in one walk: `sealed` to store, `masked` to answer. Subtrees
 * without credentials are shared, not copied (transcripts are most of a record and hold none), so the
 * walk allocates little on the post-call hot path.
 */
export function protectCredentials<T>(record: T, box: SecretBox): { sealed: T; masked: T } {
  const walk = (value: Json): [Json, Json] => {
    if (Array.isArray(value)) {
      let sealed: Json[] | undefined;
      let masked: Json[] | undefined;
      for (let i = 0; i < value.length; i++) {
        const item = value[i];
        if (item === null || typeof item !== 'object') continue;
        const [s, m] = walk(item);
        if (s === item && m === item) continue;
        sealed ??= value.slice();
        masked ??= value.slice();
        sealed[i] = s;
        masked[i] = m;
      }
      return [sealed ?? value, masked ?? value];
    }
    if (value === null || typeof value !== 'object') return [value, value];
    let sealed: Record<string, Json> | undefined;
    let masked: Record<string, Json> | undefined;
    for (const key in value as Record<string, Json>) {
      const field = (value as Record<string, Json>)[key];
      let s: Json;
      let m: Json;
      if (isCredentialField(key) && field !== null) {
        s = typeof field === 'string' && box.isSealed(field) ? field : box.seal(toPlain(field));
        m = typeof field === 'string' ? maskValue(box.isSealed(field) ? safeOpen(box, field) : field) : MASK;
      } else if (key === 'auth_headers' && Array.isArray(field)) {
        s = field.map((line) => (typeof line === 'string' && !box.isSealed(line) ? box.seal(line) : line));
        m = field.map((line) => (typeof line === 'string' ? maskHeaderLine(box.isSealed(line) ? safeOpen(box, line) : line) : line));
      } else if (field !== null && typeof field === 'object') {
        [s, m] = walk(field);
        if (s === field && m === field) continue;
      } else {
        continue;
      }
      sealed ??= { ...(value as Record<string, Json>) };
      masked ??= { ...(value as Record<string, Json>) };
      sealed[key] = s;
      masked[key] = m;
    }
    return [sealed ?? value, masked ?? value];
  };
  const [sealed, masked] = walk(record);
  return { sealed: sealed as T, masked: masked as T };
}

function safeOpen(box: SecretBox, sealed: string): string {
  try {
    return box.open(sealed);
  } catch {
    return '';
  }
}

/** A credential answered masked (`****`, `****` + its last four, `Name: ****…` for a header line). */
export function looksMasked(value: string): boolean {
  const colon = value.indexOf(':');
  const part = colon >= 0 && !value.startsWith(MASK) ? value.slice(colon + 1).trim() : value;
  return part.startsWith(MASK);
}

/**
 * A record edited from its masked form (a client read it back, changed something else and sends it whole):
 * every credential still in its masked form is restored from `previous` at the same place, when the mask is
 * the mask of the value there; the ones that match nothing are listed by JSON pointer, for the caller to
 * refuse. Storing the mask itself would silently replace the credential with four asterisks.
 */
export function restoreMaskedCredentials<T>(record: T, previous: unknown, box: SecretBox): { record: T; unmatched: string[] } {
  const unmatched: string[] = [];
  const reveal = (v: unknown): string | undefined => (typeof v !== 'string' ? undefined : box.isSealed(v) ? safeOpen(box, v) : v);
  const restoreOne = (value: Json, before: Json, pointer: string, mask: (plain: string) => string): Json => {
    if (typeof value !== 'string' || !looksMasked(value)) return value;
    const plain = reveal(before);
    if (plain !== undefined && plain !== '' && mask(plain) === value) return before;
    unmatched.push(pointer);
    return value;
  };
  const walk = (value: Json, before: Json, pointer: string): Json => {
    if (Array.isArray(value)) {
      return value.map((item, i) => walk(item, Array.isArray(before) ? before[i] : undefined, `${pointer}/${i}`));
    }
    if (value === null || typeof value !== 'object') return value;
    const prev = before !== null && typeof before === 'object' && !Array.isArray(before) ? (before as Record<string, Json>) : {};
    const out: Record<string, Json> = {};
    for (const [key, field] of Object.entries(value as Record<string, Json>)) {
      const at = `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      if (isCredentialField(key)) {
        out[key] = restoreOne(field, prev[key], at, maskValue);
      } else if (key === 'auth_headers' && Array.isArray(field)) {
        const lines = Array.isArray(prev[key]) ? (prev[key] as Json[]) : [];
        // A header line is matched by its name among the previous lines (their order may change).
        out[key] = field.map((line, i) => {
          if (typeof line !== 'string' || !looksMasked(line)) return line;
          const name = line.slice(0, Math.max(0, line.indexOf(':'))).trim().toLowerCase();
          const match = lines.find((l) => typeof l === 'string' && maskHeaderLine(reveal(l) ?? '') === line && (reveal(l) ?? '').toLowerCase().startsWith(name));
          return restoreOne(line, match, `${at}/${i}`, maskHeaderLine);
        });
      } else {
        out[key] = walk(field, prev[key], at);
      }
    }
    return out;
  };
  return { record: walk(record, previous, '') as T, unmatched };
}
