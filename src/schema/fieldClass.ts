// What redaction does with a string field, declared once beside the field in its resource schema (as the
// schema keyword `x-field-class`, which validators ignore and OpenAPI carries as an extension):
//   content     free text that may hold anything a person said or typed: searched and redacted;
//   identifier  ids, enums, timestamps, codes, our own urls: left as is;
//   phone       phone-bearing metadata (ani, dnis, fromNumber...): masked whole when PhoneNumber is redacted,
//               otherwise searched like content;
//   credential  a credential (see credentials.ts): sealed at rest and masked in answers elsewhere, left here.
// A string without a class (an undeclared field, an open object's extra fields, `Type.Unknown`) is content.
import type { TSchema } from 'typebox';

export const FIELD_CLASS = 'x-field-class';

export const FIELD_CLASSES = ['content', 'identifier', 'phone', 'credential'] as const;
export type FieldClass = (typeof FIELD_CLASSES)[number];

/** The class a schema declares for its string values; undefined when it declares none. */
export function declaredClass(schema: TSchema | undefined): FieldClass | undefined {
  const value = (schema as Record<string, unknown> | undefined)?.[FIELD_CLASS];
  return FIELD_CLASSES.find((c) => c === value);
}

/** The class of a string value under `schema` (undefined: nothing is declared there): content unless declared. */
export function stringClass(schema: TSchema | undefined, value: string): FieldClass {
  const declared = declaredClass(schema);
  if (declared) return declared;
  // An enum fixes its values: one of them is an identifier; anything else is nobody's enum value.
  const values = (schema as { enum?: unknown[] } | undefined)?.enum;
  if (Array.isArray(values) && values.includes(value)) return 'identifier';
  return 'content';
}
