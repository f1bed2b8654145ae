// The fail-closed walk of a record with its schema: every string is redacted by the class its field declares
// (schema/fieldClass.ts). Content is searched, identifiers and credentials are left, phone-bearing metadata is
// masked whole when PhoneNumber is redacted (and searched like content otherwise). Whatever the schema does not
// declare — undeclared fields, open objects' extras, Type.Unknown, arrays of unknown — is content, walked to
// any depth; numbers (but an undeclared integer of a value's length), booleans and null are left. Content that
// is JSON text (an object or an array) is parsed and its strings redacted one by one, so values in it are found
// as they are, not glued to quotes and keys.
import type { TSchema } from 'typebox';
import { invalid } from '../errors.js';
import { stringClass } from '../schema/fieldClass.js';
import { isCredentialField } from '../schema/credentials.js';
import { docFromText } from './recognizers/doc.js';
import type { RecordRedactor } from './recordRedactor.js';
import { ignoredWords } from './spans.js';

type Json = Record<string, unknown>;
type Schema = TSchema & {
  type?: string | string[];
  properties?: Record<string, TSchema>;
  additionalProperties?: boolean | TSchema;
  items?: TSchema;
  anyOf?: TSchema[];
  oneOf?: TSchema[];
  enum?: unknown[];
};

/** Deeper than this, a record is refused (a walk that stopped there would leave the rest unread). */
const MAX_DEPTH = 64;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function typeOf(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (value === null) return 'null';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** The branch of a union that fits the value (a union of objects/arrays/strings picks the first that fits). */
function fitting(schema: Schema | undefined, value: unknown): Schema | undefined {
  const branches = schema?.anyOf ?? schema?.oneOf;
  if (!branches) return schema;
  const t = typeOf(value);
  return (branches as Schema[]).find((b) => {
    const types = Array.isArray(b.type) ? b.type : [b.type];
    return types.includes(t) || (t === 'integer' && types.includes('number'));
  });
}

function propertySchema(schema: Schema | undefined, key: string): Schema | undefined {
  const declared = schema?.properties?.[key];
  if (declared) return declared as Schema;
  const extra = schema?.additionalProperties;
  return typeof extra === 'object' ? (extra as Schema) : undefined;
}

export class SchemaWalk {
  /** The keys from the walk's root to the value being walked: a pointer is spelled only for an error. */
  private path: (string | number)[] = [];

  constructor(private readonly r: RecordRedactor) {}

  /** Redact `record` in place under `schema`. */
  record(record: Json, schema: TSchema): void {
    this.path = [];
    this.object(record, schema as Schema, 0);
  }

  private object(holder: Json, schema: Schema | undefined, depth: number): void {
    if (depth > MAX_DEPTH) throw tooDeep(this.path);
    for (const key of Object.keys(holder)) {
      // Credentials are sealed and masked by name wherever they are (security/credentials.ts).
      if (isCredentialField(key) || this.r.isDone(holder, key)) continue;
      this.path.push(key);
      holder[key] = this.value(holder[key], propertySchema(schema, key), depth + 1);
      this.path.pop();
    }
  }

  private value(value: unknown, declared: Schema | undefined, depth: number): unknown {
    const schema = fitting(declared, value);
    if (typeof value === 'string') return this.string(value, schema);
    if (Array.isArray(value)) {
      if (depth > MAX_DEPTH) throw tooDeep(this.path);
      const items = schema?.type === 'array' ? (schema.items as Schema | undefined) : undefined;
      for (let i = 0; i < value.length; i++) {
        this.path.push(i);
        value[i] = this.value(value[i], items, depth + 1);
        this.path.pop();
      }
      return value;
    }
    if (isObject(value)) {
      this.object(value, schema?.type === 'object' ? schema : undefined, depth);
      return value;
    }
    // Type.Unknown ({}) declares nothing: what it holds is undeclared data.
    if (typeof value === 'number' && declared?.type === undefined) return this.undeclaredNumber(value);
    return value;
  }

  /**
   * Numbers are left, except an undeclared integer long enough to be a value (an SSN has 9 digits, a card 13
   * to 19): searched as its digits, and replaced by the mask (a string) when it is one.
   */
  private undeclaredNumber(value: number): number | string {
    if (!Number.isInteger(value) || Math.abs(value) < 1e8 || Math.abs(value) >= 1e21) return value;
    const text = String(value);
    const redacted = this.r.text(text);
    return redacted === text ? value : redacted;
  }

  private string(value: string, schema: Schema | undefined): string {
    switch (stringClass(schema?.type === 'string' || schema?.enum ? schema : undefined, value)) {
      case 'identifier':
      case 'credential':
        return value;
      case 'phone':
        return this.phone(value);
      default:
        return this.content(value);
    }
  }

  /** Masked whole as a PhoneNumber when that kind is redacted (unless allow-listed); otherwise content. */
  private phone(value: string): string {
    const rule = this.r.kindRule('PhoneNumber');
    if (!rule || !/[\p{L}\p{N}]/u.test(value)) return this.content(value);
    if (ignoredWords(docFromText(value), this.r.custom).every(Boolean)) return value;
    const replacement = this.r.masker.mask(rule, value);
    // A number is looked for elsewhere in the record; words typed into a phone field are masked here, but they
    // are no value (a sentence there would mask the same sentence in every other field whole).
    if (/\p{L}{2}/u.test(value)) this.r.list(rule, replacement, 1);
    else this.r.found(rule, value, replacement, 1);
    return replacement;
  }

  /** Free text; JSON text is parsed and its values redacted one by one. */
  content(value: string): string {
    const parsed = embeddedJson(value);
    if (parsed === undefined) return this.r.text(value);
    const before = JSON.stringify(parsed);
    // The embedded value is walked from its own root.
    const outer = this.path;
    this.path = [];
    try {
      this.value(parsed, undefined, 0);
    } catch {
      // Nested too deeply to walk: searched as plain text instead.
      return this.r.text(value);
    } finally {
      this.path = outer;
    }
    const after = JSON.stringify(parsed);
    return after === before ? value : after;
  }
}

/** The object or array that `value` spells as JSON, if it does. */
function embeddedJson(value: string): object | undefined {
  const trimmed = value.trim();
  if (!/^[[{]/.test(trimmed)) return undefined;
  try {
    const parsed: unknown = JSON.parse(trimmed);
    return typeof parsed === 'object' && parsed !== null ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function tooDeep(path: readonly (string | number)[]) {
  const pointer = path.map((key) => `/${key}`).join('');
  return invalid(`The record is nested more than ${MAX_DEPTH} levels deep; it cannot be redacted field by field.`, [
    { pointer: pointer || '/', path: pointer.replace(/^\//, '').replace(/\//g, '.') || '(root)', message: `nested more than ${MAX_DEPTH} levels deep` },
  ]);
}
