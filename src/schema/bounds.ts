// Bounds on what a client may send, declared once: every integer has a range the databases can hold, every
// id a length an index can hold and no control characters (PostgreSQL refuses NUL in text), so that a value
// that would fail in the store is refused as the client's 400 before it gets there. Route schemas are
// checked against these rules when routes are registered (api/inputGuard.ts): an unbounded query parameter
// cannot be declared.
import Type, { type TInteger, type TString } from 'typebox';
import { invalid } from '../errors.js';

/** Longest id (eventId, jobId, sid, conversation keys...): well under PostgreSQL's btree row limit in UTF-8. */
export const MAX_ID_LENGTH = 256;
/** Longest other identifier-like value (codes, our own urls, names). */
export const MAX_IDENT_LENGTH = 4096;
/** Longest free text in a query string or form field (a transcript sent as `text` is a body, bounded by its size). */
export const MAX_QUERY_TEXT_LENGTH = 8192;
/** Largest paging offset: a 32-bit signed integer, which SQLite and PostgreSQL both take as an integer. */
export const MAX_OFFSET = 2_147_483_647;
/** Largest integer a JSON field may hold: beyond it a JavaScript number is no longer an exact integer. */
export const MAX_SAFE_INT = Number.MAX_SAFE_INTEGER;
/** Deepest nesting of a JSON body (the root is level 0), as redaction allows: deeper is no record, only a stack risk. */
export const MAX_JSON_DEPTH = 64;

/** No C0 control characters (NUL included) nor DEL: for ids and identifiers. */
export const NO_CONTROL_CHARACTERS = '^[^\\u0000-\\u001F\\u007F]*$';

/** An id: 1..MAX_ID_LENGTH characters, no control characters. */
export const idString = (options: Record<string, unknown> = {}): TString =>
  Type.String({ minLength: 1, maxLength: MAX_ID_LENGTH, pattern: NO_CONTROL_CHARACTERS, ...options });

/** Text in a query string (a filter, a prefix): bounded, no control characters. */
export const queryText = (options: Record<string, unknown> = {}): TString =>
  Type.String({ maxLength: MAX_QUERY_TEXT_LENGTH, pattern: NO_CONTROL_CHARACTERS, ...options });

/** An integer within [minimum, maximum] (both required: integers come bounded). */
export const boundedInt = (minimum: number, maximum: number, options: Record<string, unknown> = {}): TInteger =>
  Type.Integer({ minimum, maximum, ...options });

/** A time in a query string: an ISO 8601 date-time, or a date (its midnight UTC). */
export const isoTime = (description: string) =>
  Type.Union([Type.String({ format: 'date-time' }), Type.String({ format: 'date' })], { description });

/** An isoTime parameter as the stores hold times (toISOString); a 400 naming it when no real time. */
export function isoParam(value: string | undefined, name: string): string | undefined {
  if (value === undefined) return undefined;
  const time = new Date(value);
  if (Number.isNaN(time.getTime())) {
    const message = 'is not a time (ISO 8601 date-time or date)';
    throw invalid(`${name} ${message}`, [{ pointer: `/query/${name}`, path: `query.${name}`, message }]);
  }
  return time.toISOString();
}

/** limit and offset of a paged list: optional, their defaults filled in before the handler runs. */
export function paging(maxLimit: number, defaultLimit: number) {
  return {
    limit: Type.Optional(boundedInt(1, maxLimit, { default: defaultLimit })),
    offset: Type.Optional(boundedInt(0, MAX_OFFSET, { default: 0 })),
  };
}
