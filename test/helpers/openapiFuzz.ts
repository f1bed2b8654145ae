// Requests made from the service's own OpenAPI document: every operation, its path and query parameters,
// headers, JSON bodies and form fields sampled from their schemas, then spoiled with hostile values (huge
// and non-finite numbers, NUL bytes, 1 MiB strings, unicode, wrong types, arrays for scalars, deep nesting,
// broken encodings). Deterministic: everything random comes from one seeded generator.

/** mulberry32: small, fast and good enough to spread requests; the same seed gives the same requests. */
export class Rng {
  private state: number;
  constructor(readonly seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }
}

type Schema = Record<string, any>;

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: Schema;
}

export interface Operation {
  method: string;
  /** OpenAPI path, e.g. /asr/jobs/{jobId} */
  path: string;
  id: string;
  parameters: Parameter[];
  /** Content type -> body schema. */
  bodies: Record<string, Schema>;
}

export interface FuzzRequest {
  operation: string;
  method: string;
  /** Path and query, already encoded. */
  url: string;
  headers: Record<string, string>;
  body?: Buffer;
}

/** A value placed in the URL or a form exactly as written (no percent-encoding): a broken encoding on purpose. */
class RawText {
  constructor(readonly text: string) {}
}
/** A JSON token written as is in a body: numbers JSON can spell but JavaScript cannot hold (1e999). */
class RawJson {
  constructor(readonly token: string) {}
}

export const MIB = 1 << 20;
const big = (n: number, unit = 'x') => unit.repeat(n);

/** Text that no schema should take for granted (query values, path segments, form fields, header values). */
function hostileText(rng: Rng): string | RawText {
  // 1 MiB values are rare: each costs a full read and validation, and the file has a time budget.
  if (rng.chance(0.02)) return big(MIB);
  return rng.pick<string | RawText>([
    '1e999', '-1e999', '1e20', '9223372036854775807', '-9223372036854775808', '18446744073709551616', '2147483648',
    '-1', '0', '1.5', '-0', 'NaN', 'Infinity', '-Infinity', '0x10', '1_000', '', ' ', 'true', 'false', 'null',
    '[]', '{}', '[1,2]', '{"a":1}', '\u0000', 'a\u0000b', '\u0001\u001f\u007f', '\r\n', '\t',
    'é🙂中文', '\u202eevil', '\ufeffbom', '\ud83d', "'; drop table jobs; --", '../../../etc/passwd', '<script>',
    big(10_000), big(300, '🙂'), new RawText('%'), new RawText('%zz'), new RawText('%ED%A0%80'), new RawText('%C0%80'),
    new RawText('%FF%FE'), new RawText('%00'), new RawText('a%00'),
  ]);
}

/** JSON values of every wrong kind, including tokens JavaScript turns into Infinity. */
function hostileJson(rng: Rng): unknown {
  if (rng.chance(0.02)) return big(MIB);
  const choice = rng.int(0, 29);
  switch (choice) {
    case 0: return new RawJson('1e999');
    case 1: return new RawJson('-1e999');
    case 2: return new RawJson('1e20');
    case 3: return new RawJson('9223372036854775807');
    case 4: return new RawJson('-9223372036854775809');
    case 5: return new RawJson('1E+400');
    case 6: return -1;
    case 7: return 1.5;
    case 8: return 2 ** 53;
    case 9: return null;
    case 10: return true;
    case 11: return '';
    case 12: return '\u0000';
    case 13: return 'text\u0000with nul';
    case 14: return '\ud800';
    case 15: return 'é🙂中文\u202e';
    case 16: return [];
    case 17: return {};
    case 18: return ['x'];
    case 19: return [[['deep']]];
    case 20: return nested(rng.pick([100, 2_000, 50_000]), 'array');
    case 21: return nested(rng.pick([100, 2_000, 50_000]), 'object');
    case 22: return big(10_000);
    case 23: return { '\u0000': 'key with nul' };
    case 24: return { constructor: { prototype: { polluted: true } } };
    case 25: return Array.from({ length: 10_000 }, (_, i) => i);
    case 26: return 'x'.repeat(300);
    case 27: return 0;
    case 28: return 'true';
    default: return { a: { b: { c: 1 } } };
  }
}

function nested(depth: number, kind: 'array' | 'object'): RawJson {
  return new RawJson(kind === 'array' ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth));
}

/** Serialise a JSON value, writing RawJson tokens as they are. */
export function toJsonText(value: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_key, v) => {
    if (v instanceof RawJson) {
      raws.push(v.token);
      return `\u0001RAW${raws.length - 1}\u0001`;
    }
    return v;
  });
  if (raws.length === 0) return text ?? 'null';
  return text.replace(/"\\u0001RAW(\d+)\\u0001"/g, (_m, i: string) => raws[Number(i)]);
}

export class OpenApiFuzzer {
  readonly operations: Operation[];

  constructor(
    private readonly doc: Schema,
    /**
     * Ids that exist, by parameter or field name, for a method: most requests aim at real resources so they
     * get past 404 (and writes can aim at ids of their own, so that reads keep finding theirs).
     */
    private readonly known: (name: string, method: string) => readonly string[] | undefined,
    /** Valid values to use for some parameters instead of sampling (e.g. `wait`, which blocks by design). */
    private readonly tame: Record<string, (rng: Rng, fuzzer: OpenApiFuzzer) => unknown>,
    private readonly audio: Buffer,
  ) {
    this.operations = [];
    for (const [path, item] of Object.entries<Schema>(doc.paths ?? {})) {
      for (const [method, op] of Object.entries<Schema>(item)) {
        if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
        const parameters: Parameter[] = (op.parameters ?? []).map((p: Schema) => ({ name: p.name, in: p.in, required: !!p.required, schema: this.resolve(p.schema ?? {}) }));
        const bodies: Record<string, Schema> = {};
        for (const [type, media] of Object.entries<Schema>(op.requestBody?.content ?? {})) bodies[type] = this.resolve(media.schema ?? {});
        this.operations.push({ method: method.toUpperCase(), path, id: `${method.toUpperCase()} ${path}`, parameters, bodies });
      }
    }
  }

  /**
   * An operation chosen at random, weighted by how much input it takes (parameters, body types), so that the
   * large surfaces get most requests and every operation gets some.
   */
  pickOperation(operations: readonly Operation[], rng: Rng): Operation {
    const weight = (op: Operation) => 2 + Math.sqrt(op.parameters.length) + 3 * Object.keys(op.bodies).length;
    let at = rng.next() * operations.reduce((sum, op) => sum + weight(op), 0);
    for (const op of operations) {
      at -= weight(op);
      if (at < 0) return op;
    }
    return operations[operations.length - 1];
  }

  /** A shared schema of the document (components), by name. */
  schema(name: string): Schema {
    return this.resolve({ $ref: `#/components/schemas/${name}` });
  }

  private resolve(schema: Schema): Schema {
    let s = schema;
    for (let i = 0; i < 10 && typeof s?.$ref === 'string'; i++) {
      const name = s.$ref.replace(/^#\/components\/schemas\//, '');
      s = this.doc.components?.schemas?.[name] ?? {};
    }
    return s;
  }

  /** A value the schema accepts (mostly: formats and patterns are approximated). */
  sample(schema: Schema, rng: Rng, depth = 0, name = '', method = 'GET'): unknown {
    const s = this.resolve(schema);
    if (name in this.tame) return this.tame[name](rng, this);
    if (s.const !== undefined) return s.const;
    if (Array.isArray(s.enum)) return rng.pick(s.enum);
    const alternatives = s.anyOf ?? s.oneOf;
    if (Array.isArray(alternatives)) return this.sample(rng.pick(alternatives), rng, depth, name, method);
    const type = Array.isArray(s.type) ? rng.pick(s.type) : s.type;
    switch (type) {
      case 'integer': {
        const lo = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : -1000);
        const hi = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - 1 : 1_000_000);
        return rng.int(Math.max(lo, -1e9), Math.min(hi, 1e9));
      }
      case 'number':
        return Math.round(((s.minimum ?? 0) + rng.next() * Math.min((s.maximum ?? 1000) - (s.minimum ?? 0), 1e6)) * 100) / 100;
      case 'boolean':
        return rng.chance(0.5);
      case 'null':
        return null;
      case 'array': {
        if (depth > 5) return [];
        const n = rng.int(s.minItems ?? 0, Math.min(s.maxItems ?? 3, 3));
        return Array.from({ length: n }, () => this.sample(s.items ?? {}, rng, depth + 1, name, method));
      }
      case 'object': {
        const out: Record<string, unknown> = {};
        if (depth > 5) return out;
        const required = new Set<string>(s.required ?? []);
        const properties = Object.entries<Schema>(s.properties ?? {});
        // Optional fields sparsely (a few per object), so that large resources stay small and valid requests
        // with many optional parameters still happen.
        const p = Math.min(0.5, (depth === 0 ? 4 : 2) / Math.max(1, properties.length));
        for (const [key, sub] of properties) {
          if (required.has(key) || rng.chance(p)) out[key] = this.sample(sub, rng, depth + 1, key, method);
        }
        return out;
      }
      case 'string':
        return this.sampleString(s, rng, name, method);
      default:
        // Unknown or untyped: any JSON value.
        return rng.pick<unknown>(['text', 1, true, null, { a: 1 }, ['b']]);
    }
  }

  private sampleString(s: Schema, rng: Rng, name: string, method: string): string {
    if (s.format === 'date-time') return new Date(Date.UTC(2024, 0, 1) + rng.int(0, 1e9) * 1000).toISOString();
    if (s.format === 'date') return '2024-05-06';
    if (s.format === 'uuid') return '3f1c0e0a-8a44-4b7b-9a8e-0c2b7c9d1e2f';
    if (s.format === 'binary') return 'binary';
    const known = this.known(name, method);
    if (known && known.length > 0 && rng.chance(0.85)) return rng.pick(known);
    const min = s.minLength ?? 0;
    const max = Math.min(s.maxLength ?? 24, 24);
    const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789-_ ';
    const n = rng.int(Math.max(min, 1), Math.max(min, max, 1));
    let out = '';
    for (let i = 0; i < n; i++) out += alphabet[rng.int(0, alphabet.length - 1)];
    return out;
  }

  /** One request for `op`: sampled from its schemas, then spoiled in one or two places (or none). */
  request(op: Operation, rng: Rng): FuzzRequest {
    const spoil = rng.int(0, 2); // how many places get a hostile value (0: a valid request)
    const places = this.places(op);
    const spoiled = new Set<string>();
    // A part of the request first (path, query, header, body), then a place in it: a body is spoiled as often
    // as the query, however many query parameters there are.
    for (let i = 0; i < spoil; i++) spoiled.add(rng.pick(rng.pick(places)));

    let path = op.path;
    const query: string[] = [];
    const headers: Record<string, string> = {};
    const optionalQuery = op.parameters.filter((p) => p.in === 'query' && !p.required).length;
    for (const p of op.parameters) {
      const place = `${p.in}:${p.name}`;
      const hostile = spoiled.has(place);
      if (p.in === 'path') {
        const value = hostile ? hostileText(rng) : this.pathValue(p, rng, op.method);
        path = path.replace(`{${p.name}}`, encodeText(value));
      } else if (p.in === 'query') {
        if (!hostile && !p.required && !rng.chance(Math.min(0.5, 3 / optionalQuery))) continue;
        if (hostile) {
          // An array for a scalar (the parameter repeated) or a hostile value.
          const values = rng.chance(0.2) ? [this.sample(p.schema, rng, 0, p.name, op.method), this.sample(p.schema, rng, 0, p.name, op.method)] : [hostileText(rng)];
          for (const v of values) query.push(`${encodeURIComponent(p.name)}=${encodeText(asText(v))}`);
        } else {
          for (const v of asQueryValues(this.sample(p.schema, rng, 0, p.name, op.method))) query.push(`${encodeURIComponent(p.name)}=${encodeText(v)}`);
        }
      } else if (p.in === 'header') {
        if (!hostile && !rng.chance(0.5)) continue;
        // Header values cannot carry NUL or line breaks (the HTTP client refuses them): printable text only.
        const value = hostile ? asText(hostileText(rng)) : asText(this.sample(p.schema, rng, 0, p.name, op.method));
        const printable = plain(value).replace(/[^\x20-\x7e]/g, '?').slice(0, 8000);
        headers[p.name] = printable;
      }
    }
    if (spoiled.has('query:(extra)')) query.push(`${encodeText(hostileText(rng))}=${encodeText(hostileText(rng))}`);

    let body: Buffer | undefined;
    const types = Object.keys(op.bodies);
    if (types.length > 0) {
      const type = rng.pick(types);
      const schema = op.bodies[type];
      const wrecked = spoiled.has('body');
      if (type === 'application/json') {
        headers['content-type'] = 'application/json';
        body = Buffer.from(this.jsonBody(schema, rng, wrecked, op.method));
      } else if (type === 'multipart/form-data') {
        const form = this.formBody(schema, rng, wrecked, op.method);
        headers['content-type'] = form.contentType;
        body = form.body;
      } else {
        headers['content-type'] = type.includes('*') ? 'audio/wav' : type;
        body = wrecked ? Buffer.from(plain(hostileText(rng))) : this.audio;
      }
    }
    return { operation: op.id, method: op.method, url: path + (query.length > 0 ? `?${query.join('&')}` : ''), headers, body };
  }

  private places(op: Operation): string[][] {
    const parts = new Map<string, string[]>([['query', ['query:(extra)']]]);
    for (const p of op.parameters) parts.set(p.in, [...(parts.get(p.in) ?? []), `${p.in}:${p.name}`]);
    if (Object.keys(op.bodies).length > 0) parts.set('body', ['body']);
    return [...parts.values()];
  }

  private pathValue(p: Parameter, rng: Rng, method: string): string {
    const known = this.known(p.name, method);
    if (known && known.length > 0 && rng.chance(0.8)) return rng.pick(known);
    return String(this.sample(p.schema, rng, 0, p.name, method));
  }

  private jsonBody(schema: Schema, rng: Rng, wrecked: boolean, method: string): string {
    if (wrecked && rng.chance(0.25)) {
      // The body itself is wrong: not an object, not JSON, or truncated.
      return rng.pick([() => toJsonText(hostileJson(rng)), () => '{"a":', () => '', () => 'not json', () => '{"a":1}{"b":2}', () => '\u0000'])();
    }
    const value = this.sample(schema, rng, 0, '', method) as Record<string, unknown>;
    if (wrecked) spoilOne(value, rng, hostileJson);
    return toJsonText(value);
  }

  private formBody(schema: Schema, rng: Rng, wrecked: boolean, method: string): { contentType: string; body: Buffer } {
    const boundary = '----scrublinefuzz7d1e';
    const chunks: Buffer[] = [];
    const field = (name: string, value: string | Buffer) =>
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name.replace(/["\r\n]/g, '_')}"\r\n\r\n`), Buffer.from(value), Buffer.from('\r\n'));
    const fields = (this.sample(schema, rng, 0, '', method) as Record<string, unknown>) ?? {};
    delete fields.audio;
    const names = Object.keys(fields);
    // What is spoiled: a field, an extra field, the file's name or its content.
    const target = wrecked ? rng.pick(['field', 'extra', 'filename', 'content'] as const) : undefined;
    const spoiledName = target === 'field' && names.length > 0 ? rng.pick(names) : undefined;
    for (const [name, value] of Object.entries(fields)) {
      if (name === spoiledName) {
        field(name, plain(hostileText(rng)));
      } else {
        for (const v of asQueryValues(value)) field(name, v);
      }
    }
    if (target === 'extra' || (target === 'field' && !spoiledName)) field(rng.pick(['types', 'sid', 'jobId', 'extra']), plain(hostileText(rng)));
    // A recording most of the time (always when its name or content is spoiled).
    if (target === 'filename' || target === 'content' || rng.chance(0.7)) {
      const filename = target === 'filename' ? rng.pick(['', '../../x.wav', 'a\u0000.wav', '\u0000', 'a\u0001b.wav', 'tab\t.wav', big(5000) + '.wav', 'é🙂.wav', '%00.wav']) : 'call.wav';
      const content = target === 'content' ? rng.pick([Buffer.from('RIFF\u0000\u0000garbage'), Buffer.alloc(0), this.audio.subarray(0, 60)]) : this.audio;
      chunks.push(
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="audio"; filename="${filename.replace(/["\r\n]/g, '_')}"\r\nContent-Type: audio/wav\r\n\r\n`),
        content,
        Buffer.from('\r\n'),
      );
    }
    chunks.push(Buffer.from(`--${boundary}--\r\n`));
    return { contentType: `multipart/form-data; boundary=${boundary}`, body: Buffer.concat(chunks) };
  }
}

/** Replace one value somewhere in a JSON object (or add a field) with a hostile one. */
function spoilOne(root: Record<string, unknown>, rng: Rng, make: (rng: Rng) => unknown): void {
  const slots: { parent: Record<string, unknown> | unknown[]; key: string | number }[] = [];
  const walk = (node: unknown, depth: number) => {
    if (depth > 8 || node === null || typeof node !== 'object') return;
    for (const [key, child] of Object.entries(node)) {
      slots.push({ parent: node as Record<string, unknown>, key: Array.isArray(node) ? Number(key) : key });
      walk(child, depth + 1);
    }
  };
  walk(root, 0);
  if (slots.length === 0 || rng.chance(0.15)) {
    root[rng.pick(['eventId', 'extra', 'sid', 'engagementId', 'name', 'value', 'data', 'text'])] = make(rng);
    return;
  }
  const slot = rng.pick(slots);
  (slot.parent as Record<string | number, unknown>)[slot.key] = make(rng);
}

function plain(value: string | RawText): string {
  return value instanceof RawText ? value.text : value;
}

function asText(value: unknown): string | RawText {
  if (value instanceof RawText) return value;
  if (typeof value === 'string') return value;
  return toJsonText(value);
}

/** A sampled query value as text: arrays as repeated parameters, objects as JSON. */
function asQueryValues(value: unknown): string[] {
  if (Array.isArray(value)) return value.map((v) => String(asText(v)));
  const text = asText(value);
  return [plain(text)];
}

function encodeText(value: string | RawText): string {
  if (value instanceof RawText) return value.text;
  // Lone surrogates cannot be percent-encoded as UTF-8: send the bytes a broken client would.
  try {
    return encodeURIComponent(value);
  } catch {
    return encodeURIComponent(value.replace(/[\ud800-\udfff]/g, '')) + '%ED%A0%80';
  }
}
