// Field builders shared by every resource declaration. Every field of the interface is optional (the spec
// states no required fields) and every object keeps fields the spec does not name, because contact-center
// systems add their own; `additionalProperties: true` also tells the OpenAPI document so.
import Type, { type TSchema, type TProperties, type TOptional } from 'typebox';

export const str = () => Type.String();
export const int = () => Type.Integer();
export const num = () => Type.Number();
export const bool = () => Type.Boolean();
export const dateTime = () => Type.String({ format: 'date-time' });
export const uuid = () => Type.String({ format: 'uuid' });
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
