// JSON Schema validation with Ajv, in two flavours: bodies are checked exactly as sent (no type coercion,
// nothing removed), while query strings and path parameters are coerced from text. Errors are turned into
// FieldIssues carrying the pointer and path of each invalid field.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { TSchema } from 'typebox';
import type { FieldIssue } from './problem.js';
import { registeredSchemas, type SharedSchemaName } from './registry.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

function makeAjv(coerce: boolean): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    coerceTypes: coerce ? 'array' : false,
    removeAdditional: false,
    useDefaults: true,
    strict: false,
  });
  addFormats(ajv);
  for (const schema of registeredSchemas()) ajv.addSchema(schema);
  return ajv;
}

export const bodyAjv = makeAjv(false);
export const textAjv = makeAjv(true);

/** "/a/0/b" -> "a[0].b" */
export function pointerToPath(pointer: string): string {
  if (pointer === '' || pointer === '/') return '';
  let out = '';
  for (const raw of pointer.split('/').slice(1)) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (/^\d+$/.test(token)) out += `[${token}]`;
    else out += out === '' ? token : `.${token}`;
  }
  return out;
}

function escapeToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Ajv errors to issues; `root` is prefixed to every pointer (e.g. "/data" for a configuration inside data). */
export function toIssues(errors: readonly ErrorObject[] | null | undefined, root = ''): FieldIssue[] {
  const seen = new Set<string>();
  const issues: FieldIssue[] = [];
  for (const error of errors ?? []) {
    let pointer = root + error.instancePath;
    const params = error.params as Record<string, unknown>;
    if (error.keyword === 'required' && typeof params.missingProperty === 'string') {
      pointer += `/${escapeToken(params.missingProperty)}`;
    }
    if (error.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
      pointer += `/${escapeToken(params.additionalProperty)}`;
    }
    let message = error.message ?? 'is invalid';
    if (error.keyword === 'enum' && Array.isArray(params.allowedValues)) {
      message = `must be one of ${params.allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
    }
    if (error.keyword === 'required') message = 'is required';
    if (error.keyword === 'additionalProperties') message = 'is not a known field here (see the OpenAPI document)';
    const key = `${pointer}|${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push({ pointer: pointer || '/', path: pointerToPath(pointer) || '(root)', message });
  }
  return issues;
}

const compiled = new WeakMap<TSchema, ValidateFunction>();

/** Validate a value against a shared schema (by name) or a schema object; answers the issues found. */
export function check(schema: SharedSchemaName | TSchema, value: unknown, root = ''): FieldIssue[] {
  let validate: ValidateFunction | undefined;
  if (typeof schema === 'string') {
    validate = bodyAjv.getSchema(schema);
    if (!validate) throw new Error(`unknown schema ${schema}`);
  } else {
    validate = compiled.get(schema);
    if (!validate) {
      validate = bodyAjv.compile(schema);
      compiled.set(schema, validate);
    }
  }
  return validate(value) ? [] : toIssues(validate.errors, root);
}

/** Like check(), for values that arrived as text (query strings, form fields): coerced to the declared types. */
export function checkText(schema: TSchema, value: unknown, root = ''): FieldIssue[] {
  let validate = compiledText.get(schema);
  if (!validate) {
    validate = textAjv.compile(schema);
    compiledText.set(schema, validate);
  }
  return validate(value) ? [] : toIssues(validate.errors, root);
}

const compiledText = new WeakMap<TSchema, ValidateFunction>();
