// Field builders shared by every resource declaration. Every field of the interface is optional (the spec
// states no required fields) and every object keeps fields the spec does not name, because contact-center
// systems add their own; `additionalProperties: true` also tells the OpenAPI document so.
//
// Every string field is declared with its redaction class (fieldClass.ts): content(), ident(), phone() or
// credential(); dateTime() and uuid() are identifiers. A plain str() has no class: redaction reads it as
// content, and test/schema/field-classes.test.ts fails on it, so a new field cannot go unclassified.
//
// Identifiers come bounded (bounds.ts): no control characters and a length limit, ids (key()) short enough
// for an index; integers are exact (within ±2^53-1). Free text (content) is bounded by the body's size.
import Type, { type TSchema, type TProperties, type TOptional, type TString } from 'typebox';
import { MAX_ID_LENGTH, MAX_IDENT_LENGTH, MAX_SAFE_INT, NO_CONTROL_CHARACTERS } from './bounds.js';
import { FIELD_CLASS, type FieldClass } from './fieldClass.js';

const classed = (fieldClass: FieldClass, options: Record<string, unknown> = {}): TString =>
  Type.String({ ...options, [FIELD_CLASS]: fieldClass });

/** A string without a redaction class (read as content). Declare resource fields with the builders below. */
export const str = () => Type.String();
/** Free text: searched and redacted. */
export const content = (options: Record<string, unknown> = {}) => classed('content', options);
/** An identifier (enum value, code, time, url of our own): left as is; bounded, no control characters. */
export const ident = (options: Record<string, unknown> = {}) =>
  classed('identifier', { maxLength: MAX_IDENT_LENGTH, pattern: NO_CONTROL_CHARACTERS, ...options });
/** An id that the store keys or looks records up by (eventId, jobId, sid, conversation keys): an identifier short enough for an index. */
export const key = (options: Record<string, unknown> = {}) => ident({ maxLength: MAX_ID_LENGTH, ...options });
/** Phone-bearing metadata: masked whole when PhoneNumber is redacted. */
export const phone = (options: Record<string, unknown> = {}) => classed('phone', options);
/** A credential (credentials.ts): sealed and masked elsewhere, never searched. */
export const credential = (options: Record<string, unknown> = {}) =>
  classed('credential', { maxLength: MAX_IDENT_LENGTH, pattern: NO_CONTROL_CHARACTERS, ...options });
export const int = () => Type.Integer({ minimum: -MAX_SAFE_INT, maximum: MAX_SAFE_INT });
export const num = () => Type.Number();
export const bool = () => Type.Boolean();
export const dateTime = () => ident({ format: 'date-time' });
export const uuid = () => ident({ format: 'uuid' });
/** The spec marks these "nullable" without naming a type: any JSON value, null included, is accepted. */
export const nullable = () => Type.Unknown({ description: 'Type not fixed by the interface: any JSON value or null.' });
export const anyArray = () => Type.Array(Type.Unknown());

/** An open object: declared fields are typed, undeclared fields are kept as sent. */
export function open<T extends TProperties>(properties: T, options: { description?: string; title?: string } = {}) {
  return Type.Object(properties, { additionalProperties: true, ...options });
}

/** Many fields of one type: `group(['a', 'b'], str)` gives `{ a?: string, b?: string }`. */
export function group<const K extends string, S extends TSchema>(
  names: readonly K[],
  make: () => S,
): { [P in K]: TOptional<S> } {
  const out = {} as Record<string, TOptional<S>>;
  for (const name of names) out[name] = Type.Optional(make()) as TOptional<S>;
  return out as { [P in K]: TOptional<S> };
}

/** Numbered field names as the spec writes them: `numbered('feature', 5)` is feature1..feature5. */
export function numbered<const P extends string>(prefix: P, count: number): `${P}${number}`[] {
  return Array.from({ length: count }, (_, i) => `${prefix}${i + 1}` as `${P}${number}`);
}

/** Optional wrapper for single fields. */
export const opt = <S extends TSchema>(schema: S) => Type.Optional(schema);
