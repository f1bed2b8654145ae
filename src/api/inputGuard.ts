// What every request must satisfy whatever its route, so that a value the store cannot take is the client's
// 400 and never the database's 500:
//  - no NUL (U+0000) in any path parameter, query key or value, or JSON body string or key (PostgreSQL text
//    cannot hold it; a transcript with a NUL is refused naming the field, nothing is silently changed);
//  - JSON bodies nested no deeper than MAX_JSON_DEPTH (deeper is no record, only a risk for recursive code);
//  - and, checked once when routes are registered, every path, query and header parameter schema bounded:
//    integers with a minimum and a maximum, strings with a maxLength (or an enum). A route declaring an
//    unbounded parameter fails at startup, so the class of "huge offset" errors cannot come back;
//  - names of uploaded recordings bounded and free of control characters (assertFileName, called by the
//    upload route: multipart bodies are read by the handler, after these hooks).
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { invalid } from '../errors.js';
import { MAX_IDENT_LENGTH, MAX_JSON_DEPTH } from '../schema/bounds.js';
import type { FieldIssue } from '../schema/problem.js';
import { pointerToPath } from '../schema/validator.js';

const NUL = '\u0000';
/** Half of a UTF-16 surrogate pair standing alone: not a character (no UTF-8 form; URL encoding throws on it). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');

/** What is wrong with a piece of client text (a NUL, a lone surrogate), or undefined. */
function textProblem(text: string): string | undefined {
  if (text.includes(NUL)) return 'contains a NUL character (U+0000), which is not accepted';
  if (LONE_SURROGATE.test(text)) return 'contains a lone UTF-16 surrogate (not a Unicode character), which is not accepted';
  return undefined;
}

/** A name shown in a problem's pointer, without the characters it refuses. */
function shown(name: string): string {
  return escapeToken(name.replaceAll(NUL, '\\0').replace(LONE_SURROGATES, '\\uFFFD'));
}

function escapeToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

function textIssue(pointer: string, what: string, problem: string): FieldIssue {
  return { pointer, path: pointerToPath(pointer) || '(root)', message: `${what} ${problem}` };
}

/** Path parameters and the query string: keys and values (repeated parameters are arrays). */
function textPartIssues(part: unknown, root: string): FieldIssue[] {
  const issues: FieldIssue[] = [];
  if (part === null || typeof part !== 'object') return issues;
  for (const [key, value] of Object.entries(part)) {
    // A NUL in a name is shown as \0: the problem's pointer must not carry the character it refuses.
    const pointer = `${root}/${shown(key)}`;
    const keyProblem = textProblem(key);
    if (keyProblem) issues.push(textIssue(pointer, 'the parameter name', keyProblem));
    for (const v of Array.isArray(value) ? value : [value]) {
      const problem = typeof v === 'string' ? textProblem(v) : undefined;
      if (problem) {
        issues.push(textIssue(pointer, 'the value', problem));
        break;
      }
    }
  }
  return issues;
}

/** A place in a JSON value: its parent's place and its key or index there, as sent (the root has neither). */
interface Place {
  value: unknown;
  parent?: Place;
  key?: string | number;
  depth: number;
}

/** The JSON pointer of a place, built only when a problem is found there (a record has tens of thousands of places). */
function pointerOf(place: Place): string {
  const keys: string[] = [];
  for (let p: Place | undefined = place; p?.key !== undefined; p = p.parent) keys.push(typeof p.key === 'number' ? String(p.key) : escapeToken(p.key));
  return keys.reverse().map((key) => `/${key}`).join('');
}

/** Whether a JSON value can hold a problem: a string, or an object or array (numbers, booleans, null cannot). */
const mayHoldIssue = (value: unknown) => typeof value === 'string' || (value !== null && typeof value === 'object');

/** The first NUL or over-deep place of a JSON value, walked without recursion (the value may nest deeply). */
export function jsonBodyIssue(body: unknown): FieldIssue | undefined {
  const stack: Place[] = [{ value: body, depth: 0 }];
  while (stack.length > 0) {
    const place = stack.pop()!;
    const { value, depth } = place;
    if (typeof value === 'string') {
      const problem = textProblem(value);
      if (problem) return textIssue(pointerOf(place) || '/', 'the string', problem);
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth > MAX_JSON_DEPTH) {
      const pointer = pointerOf(place);
      return { pointer: pointer || '/', path: pointerToPath(pointer) || '(root)', message: `is nested more than ${MAX_JSON_DEPTH} levels deep` };
    }
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) if (mayHoldIssue(value[i])) stack.push({ value: value[i], parent: place, key: i, depth: depth + 1 });
    } else {
      const entries = Object.entries(value);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i];
        const problem = textProblem(key);
        if (problem) return textIssue(`${pointerOf(place)}/${shown(key)}`, 'the field name', problem);
        if (mayHoldIssue(child)) stack.push({ value: child, parent: place, key, depth: depth + 1 });
      }
    }
  }
  return undefined;
}

/**
 * The name of an uploaded recording (a multipart part's filename, a zip entry's name) is recorded with its
 * job: bounded and free of control characters like any identifier, or the upload is refused naming it.
 */
export function assertFileName(name: string, pointer = '/audio'): void {
  let message: string | undefined;
  if (name.length > MAX_IDENT_LENGTH) message = `file name must NOT have more than ${MAX_IDENT_LENGTH} characters`;
  else if (/[\u0000-\u001f\u007f]/.test(name)) message = 'file name must not contain control characters (NUL included)';
  if (message) throw invalid(`${pointer.slice(1)}: ${message}`, [{ pointer, path: pointerToPath(pointer), message }]);
}

const isJson = (request: FastifyRequest) => /\bjson\b/i.test(String(request.headers['content-type'] ?? ''));

// --- route declarations: every parameter bounded -------------------------------------------------------------

type Schema = Record<string, unknown>;

/** String formats whose values have a bounded length of their own. */
const BOUNDED_FORMATS = new Set(['date-time', 'date', 'time', 'uuid']);

/** Where a parameter schema lets an unbounded value through (empty: it is bounded). */
export function unboundedValues(schema: unknown, at: string): string[] {
  if (schema === null || typeof schema !== 'object') return [];
  const s = schema as Schema;
  if (s.enum !== undefined || s.const !== undefined) return [];
  const out: string[] = [];
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    if (Array.isArray(s[key])) for (const sub of s[key] as unknown[]) out.push(...unboundedValues(sub, at));
  }
  const types = ([] as unknown[]).concat(s.type ?? []);
  if (types.includes('integer') || types.includes('number')) {
    if (typeof s.minimum !== 'number' && typeof s.exclusiveMinimum !== 'number') out.push(`${at}: a number without a minimum`);
    if (typeof s.maximum !== 'number' && typeof s.exclusiveMaximum !== 'number') out.push(`${at}: a number without a maximum`);
  }
  if (types.includes('string') && typeof s.maxLength !== 'number' && !BOUNDED_FORMATS.has(String(s.format))) out.push(`${at}: a string without a maxLength`);
  if (types.includes('array')) out.push(...unboundedValues(s.items, `${at}[]`));
  if (types.includes('object') || s.properties) {
    for (const [name, sub] of Object.entries((s.properties ?? {}) as Record<string, unknown>)) out.push(...unboundedValues(sub, `${at}.${name}`));
  }
  return out;
}

function checkRouteDeclaration(route: RouteOptions): void {
  const schema = route.schema as Schema | undefined;
  if (!schema) return;
  const problems: string[] = [];
  for (const part of ['params', 'querystring', 'headers'] as const) {
    if (schema[part]) problems.push(...unboundedValues(schema[part], part));
  }
  if (problems.length > 0) {
    throw new Error(`Route ${String(route.method)} ${route.url} declares unbounded input (see src/schema/bounds.ts): ${problems.join('; ')}`);
  }
}

/** Installs the guard; call before the routes are registered. */
export function registerInputGuard(app: FastifyInstance): void {
  app.addHook('onRoute', checkRouteDeclaration);

  // Before any body is read: a bad URL costs no upload.
  app.addHook('onRequest', async (request) => {
    const issues = [...textPartIssues(request.params, '/params'), ...textPartIssues(request.query, '/query')];
    if (issues.length > 0) throw invalid(`${issues[0].path}: ${issues[0].message}`, issues);
  });

  app.addHook('preValidation', async (request) => {
    if (request.body === undefined || !isJson(request)) return;
    const issue = jsonBodyIssue(request.body);
    if (issue) throw invalid(`${issue.path} ${issue.message}`, [issue]);
  });
}
