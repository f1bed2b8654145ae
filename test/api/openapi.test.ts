// The OpenAPI document served at /openapi.json: a valid OpenAPI 3.1 document, naming every path of the
// interface, every one of those paths answering, and real answers of the service (successes and problems)
// matching the response schema the document declares for their path, method and status.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { LightMyRequestResponse } from 'fastify';
import { IDS, fullEventRecord } from '../fixtures/fullRecord.js';
import { json, startTestService, type TestService } from '../helpers/harness.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/** Every endpoint the interface names (spec "Endpoints"), method and path. */
const SPEC_ENDPOINTS: [method: 'GET' | 'POST', path: string][] = [
  ['GET', '/asr/languages'],
  ['GET', '/asr/params'],
  ['GET', '/asr/metrics'],
  ['GET', '/asr/models'],
  ['GET', '/asr/usage'],
  ['GET', '/asr/statusfull'],
  ['GET', '/asr/maxstreamscheck'],
  ['GET', '/asr/stats'],
  ['GET', '/asr/status'],
  ['GET', '/asr/sysinfo'],
  ['POST', '/asr/transcribe'],
  ['GET', '/params'],
  ['POST', '/system/initialize'],
  ['POST', '/system/set-parameter'],
  ['GET', '/system/get-parameter'],
  ['GET', '/system/get-settings'],
  ['GET', '/system/cache'],
  ['POST', '/cache/post-call'],
  ['POST', '/cache/real-call'],
  ['GET', '/cache/list'],
  ['POST', '/system/cache/post-call'],
  ['POST', '/system/cache/v2/publish'],
];

/** A minimal valid request for each spec endpoint that needs a body. */
const MINIMAL_BODIES: Record<string, unknown> = {
  '/system/set-parameter': { name: 'uttmaxsilence', value: 800 },
  '/cache/post-call': { eventId: 'minimal-cache' },
  '/system/cache/post-call': { eventId: 'minimal-system' },
  '/cache/real-call': { engagementId: 'eng-minimal', text: 'hello', isFinal: true },
  '/system/cache/v2/publish': { data: JSON.stringify({ sid: 'minimal' }) },
  '/asr/transcribe': { text: 'Agent: hello\nCaller: hi' },
};

const projectConfig = {
  sid: 'acme-support',
  name: 'Acme support line',
  active: true,
  agent_location: 'left',
  inbound: true,
  scrubaudio: true,
  scrubtext: true,
  rules: [
    { name: 'Person', active: true, mask_type: 'Placeholder', setting: '[PERSON]', real_time: true },
    { name: 'USSocialSecurityNumber', active: true, mask_type: 'Placeholder', setting: '[SSN]', real_time: false },
  ],
};

type Doc = { openapi: string; paths: Record<string, Record<string, any>>; components: { schemas: Record<string, unknown> } };

const escapeToken = (token: string) => encodeURIComponent(token.replace(/~/g, '~0').replace(/\//g, '~1'));
const mediaTypeOf = (res: LightMyRequestResponse) => String(res.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
const isJsonMedia = (type: string) => type === 'application/json' || /^application\/[\w.+-]*\+json$/.test(type);

/** The documented path template that a concrete URL matches (a literal path wins over a templated one). */
function templateOf(doc: Doc, url: string): string | undefined {
  const pathname = url.split('?')[0];
  if (doc.paths[pathname]) return pathname;
  const segments = pathname.split('/');
  return Object.keys(doc.paths).find((template) => {
    const parts = template.split('/');
    return parts.length === segments.length && parts.every((part, i) => /^\{[^}]+\}$/.test(part) || part === segments[i]);
  });
}

describe('OpenAPI document (sqlite)', () => {
  let svc: TestService;
  let doc: Doc;
  let ajv: Ajv2020;
  /** Answers whose media type the document does not declare for their status (checked by a todo test below). */
  const mediaTypeMismatches = new Set<string>();
  const validators = new Map<string, ValidateFunction>();

  before(async () => {
    svc = await startTestService('sqlite');
    const res = await svc.request({ method: 'GET', url: '/openapi.json' });
    assert.equal(res.statusCode, 200, res.body);
    doc = json(res);
    ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
    addFormats(ajv);
    // The whole document under an $id, so that response schemas are compiled by JSON pointer into it and
    // their "#/components/schemas/..." references resolve inside it.
    ajv.addSchema({ ...structuredClone(doc), $id: 'openapi.json' });
  });
  after(() => svc.close());

  const call = (method: string, url: string, payload?: unknown, headers?: Record<string, string>) =>
    svc.request({ method: method as 'GET', url, ...(payload !== undefined && { payload: payload as object }), ...(headers && { headers }) });

  /** Check an actual answer against what the document declares for its path, method and status. */
  function assertConforms(method: string, url: string, res: LightMyRequestResponse): void {
    const template = templateOf(doc, url);
    assert.ok(template, `${method} ${url} is in the document`);
    const operation = doc.paths[template][method.toLowerCase()];
    assert.ok(operation, `${method} ${template} is in the document`);
    const status = String(res.statusCode);
    const key = [status, `${status[0]}XX`, 'default'].find((k) => operation.responses?.[k]);
    assert.ok(key, `${method} ${template} documents status ${status} (documented: ${Object.keys(operation.responses ?? {}).join(', ')}); body ${res.body}`);
    const content: Record<string, unknown> = operation.responses[key].content ?? {};
    const mediaType = mediaTypeOf(res);
    let declared = Object.hasOwn(content, mediaType) ? mediaType : undefined;
    if (!declared) {
      mediaTypeMismatches.add(`${method} ${template} ${status}: sent ${mediaType}, documented ${Object.keys(content).join(', ') || 'no content'}`);
      declared = isJsonMedia(mediaType) ? Object.keys(content).find(isJsonMedia) : undefined;
    }
    assert.ok(declared, `${method} ${template} ${status} documents a schema for ${mediaType}`);
    if (!isJsonMedia(mediaType)) return;
    const pointer = ['paths', template, method.toLowerCase(), 'responses', key, 'content', declared, 'schema'].map(escapeToken).join('/');
    let validate = validators.get(pointer);
    if (!validate) {
      validate = ajv.compile({ $ref: `openapi.json#/${pointer}` });
      validators.set(pointer, validate);
    }
    const body = json(res);
    assert.ok(
      validate(body),
      `${method} ${url} ${status} does not match its documented schema: ${ajv.errorsText(validate.errors)}\n${res.body.slice(0, 2000)}`,
    );
  }

  test('is a valid OpenAPI 3.1 document', async () => {
    assert.match(doc.openapi, /^3\.1\./);
    await SwaggerParser.validate(structuredClone(doc) as never);
    for (const name of ['EventRecord', 'Campaign', 'ProcessJob', 'Conversation', 'Analytics', 'SystemSettings', 'ProjectConfig', 'EngineParamsResponse', 'Problem']) {
      assert.ok(doc.components.schemas[name], `components.schemas.${name}`);
    }
  });

  test('names every path of the interface', () => {
    const missing = SPEC_ENDPOINTS.filter(([method, path]) => !doc.paths[path]?.[method.toLowerCase()]);
    assert.deepEqual(missing, []);
    const postCall = doc.paths['/system/cache/post-call'].post;
    assert.equal(postCall.requestBody.content['application/json'].schema.$ref, '#/components/schemas/EventRecord');
  });

  test('every path of the interface answers (no 404, 405 or 500)', async () => {
    for (const [method, path] of SPEC_ENDPOINTS) {
      const res = await call(method, path, method === 'POST' ? MINIMAL_BODIES[path] : undefined);
      assert.ok(
        ![404, 405].includes(res.statusCode) && res.statusCode < 500,
        `${method} ${path} answered ${res.statusCode}: ${res.body}`,
      );
      assert.ok(res.statusCode < 300, `${method} ${path} with a minimal valid request answered ${res.statusCode}: ${res.body}`);
    }
  });

  test('/asr/metrics is Prometheus text, as documented', async () => {
    const res = await call('GET', '/asr/metrics');
    assert.equal(res.statusCode, 200);
    assert.match(mediaTypeOf(res), /^text\/plain$/);
    assert.ok(res.body.includes('# HELP'), res.body.slice(0, 200));
    assert.ok(doc.paths['/asr/metrics'].get.responses['200'].content['text/plain'], 'documented as text/plain');
  });

  test('real answers match the response schemas the document declares', async () => {
    const record = fullEventRecord();
    const cases: { method: string; url: string; payload?: unknown; headers?: Record<string, string>; status: number }[] = [
      // engine
      ...['/asr/languages', '/asr/params', '/params', '/asr/models', '/asr/usage', '/asr/maxstreamscheck', '/asr/status', '/asr/sysinfo'].map((url) => ({ method: 'GET', url, status: 200 })),
      { method: 'POST', url: '/asr/transcribe', payload: { text: 'hello' }, status: 202 },
      { method: 'POST', url: '/asr/transcribe?wait=300', payload: { text: 'hello there' }, status: 200 },
      { method: 'POST', url: '/asr/transcribe', payload: { priority: 'urgent' }, status: 400 },
      // system
      { method: 'POST', url: '/system/initialize', status: 200 },
      { method: 'POST', url: '/system/set-parameter', payload: { name: 'uttmaxsilence', value: 900 }, status: 200 },
      { method: 'POST', url: '/system/set-parameter', payload: { name: 'apiKey', value: 'api-live-openapi-test-3c8e1f0b9a' }, status: 200 },
      { method: 'POST', url: '/system/set-parameter', payload: { name: 'scrubtext', value: false, sid: 'acme-support' }, status: 200 },
      { method: 'POST', url: '/system/set-parameter', payload: { name: 'uttmaxsilence', value: 'long' }, status: 400 },
      { method: 'GET', url: '/system/get-parameter?name=uttmaxsilence', status: 200 },
      { method: 'GET', url: '/system/get-parameter?name=uttpadding', status: 200 },
      { method: 'GET', url: '/system/get-parameter?name=apiKey', status: 200 },
      { method: 'GET', url: '/system/get-parameter', status: 200 },
      { method: 'GET', url: '/system/get-parameter?name=no-such-parameter', status: 404 },
      { method: 'GET', url: '/system/get-settings', status: 200 },
      { method: 'POST', url: '/system/cache/v2/publish', payload: { data: JSON.stringify(projectConfig) }, status: 200 },
      { method: 'POST', url: '/system/cache/v2/publish', payload: { data: JSON.stringify({ ...projectConfig, rules: [{ name: 'Person', active: 'yes' }] }) }, status: 400 },
      { method: 'GET', url: '/system/get-parameter?name=rules&sid=acme-support', status: 200 },
      // API keys, on a store that has none (a key made here would close the service to the calls after it)
      { method: 'GET', url: '/system/keys', status: 200 },
      { method: 'POST', url: '/system/keys', payload: { name: 'reader', scope: 'read' }, status: 409 },
      { method: 'POST', url: '/system/keys', payload: { name: '', scope: 'owner' }, status: 400 },
      { method: 'DELETE', url: '/system/keys/no-such-key', status: 404 },
      // post-call and real-call
      { method: 'POST', url: '/system/cache/post-call', payload: record, status: 201 },
      { method: 'POST', url: '/cache/post-call', payload: record, status: 200 },
      { method: 'POST', url: '/cache/post-call', payload: { ...record, eventId: 'openapi-alias' }, status: 201 },
      { method: 'GET', url: `/system/cache/post-call/${IDS.eventId}`, status: 200 },
      { method: 'GET', url: `/cache/post-call/${IDS.eventId}`, status: 200 },
      { method: 'GET', url: '/cache/post-call/no-such-event', status: 404 },
      { method: 'GET', url: '/system/cache/post-call/no-such-event', status: 404 },
      { method: 'POST', url: '/system/cache/post-call', payload: { ...record, campaign: { active: 'true' } }, status: 400 },
      { method: 'POST', url: '/system/cache/post-call', payload: 'eventId=1', headers: { 'content-type': 'text/plain' }, status: 415 },
      { method: 'POST', url: '/cache/real-call', payload: record.realTimeMessage, status: 200 },
      { method: 'POST', url: '/cache/real-call', payload: { eventId: 'rt-1', realTimeMessage: { ...record.realTimeMessage, isFinal: false } }, status: 200 },
      { method: 'POST', url: '/cache/real-call', payload: { engagementId: 'eng-1', isFinal: 'yes' }, status: 400 },
      { method: 'GET', url: `/cache/live/${record.realTimeMessage.engagementId}`, status: 200 },
      { method: 'GET', url: '/cache/live/no-such-conversation', status: 404 },
      // cache summaries, statistics (after some traffic), events, health
      { method: 'GET', url: '/cache/list', status: 200 },
      { method: 'GET', url: '/cache/list?kind=project&limit=5', status: 200 },
      { method: 'GET', url: '/cache/list?limit=0', status: 400 },
      { method: 'GET', url: '/system/cache', status: 200 },
      { method: 'GET', url: '/asr/stats', status: 200 },
      { method: 'GET', url: '/asr/stats?days=0', status: 400 },
      { method: 'GET', url: '/asr/statusfull', status: 200 },
      { method: 'GET', url: '/system/events', status: 200 },
      { method: 'GET', url: '/health', status: 200 },
      { method: 'GET', url: '/ready', status: 200 },
    ];
    const failures: string[] = [];
    for (const c of cases) {
      const res = await call(c.method, c.url, c.payload, c.headers);
      try {
        assert.equal(res.statusCode, c.status, `${c.method} ${c.url} answered ${res.statusCode}: ${res.body.slice(0, 500)}`);
        assertConforms(c.method, c.url, res);
      } catch (error) {
        failures.push((error as Error).message);
      }
    }
    assert.deepEqual(failures, []);
  });

  test('a response that breaks its documented schema is caught', () => {
    const fake = (body: unknown, status = 200) =>
      ({
        statusCode: status,
        headers: { 'content-type': status >= 400 ? 'application/problem+json; charset=utf-8' : 'application/json; charset=utf-8' },
        body: JSON.stringify(body),
      }) as unknown as LightMyRequestResponse;
    assert.throws(() => assertConforms('GET', '/asr/maxstreamscheck', fake({ streams: 'none', capacity: 4, available: 4, accepting: true })), /does not match/);
    assert.throws(() => assertConforms('GET', '/system/cache/post-call/x', fake({ campaign: { active: 'yes' } })), /does not match/);
    assert.throws(() => assertConforms('GET', '/system/cache/post-call/x', fake({ title: 'Not found' }, 404)), /does not match/);
    assert.throws(() => assertConforms('GET', '/asr/status', fake({ status: 'ok' }, 418)), /documents status 418/);
  });

  test('every transcript shape is answered in a media type the document declares, and JSON shapes match their schema', async () => {
    const submitted = await call('POST', '/asr/transcribe?wait=300', { text: 'Agent: thank you for calling\nCaller: my order is late' });
    assert.equal(submitted.statusCode, 200, submitted.body);
    const { jobId } = json(submitted);
    const sent = new Map<string, string>();
    for (const format of ['vendorA', 'vendorB', 'transcript', 'utterances', 'text', 'srt', 'vtt', undefined]) {
      const url = `/asr/jobs/${jobId}/transcript${format ? `?format=${format}` : ''}`;
      const res = await call('GET', url);
      assert.equal(res.statusCode, 200, `${url}: ${res.body.slice(0, 300)}`);
      assertConforms('GET', url, res);
      sent.set(format ?? '(none)', mediaTypeOf(res));
    }
    assert.deepEqual(Object.fromEntries(sent), {
      vendorA: 'application/json', vendorB: 'application/json', transcript: 'application/json', utterances: 'application/json',
      text: 'text/plain', srt: 'application/x-subrip', vtt: 'text/vtt', '(none)': 'application/json',
    });
    const declared = doc.paths['/asr/jobs/{jobId}/transcript'].get.responses['200'].content;
    assert.deepEqual(Object.keys(declared).sort(), ['application/json', 'application/x-subrip', 'text/plain', 'text/vtt']);
  });

  test('declares what a client generator needs: operationIds, servers, optional paging, the batch answer, bodies, the webhook', () => {
    const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([method]) => ['get', 'post', 'put', 'delete', 'patch'].includes(method))
        .map(([method, op]) => ({ where: `${method.toUpperCase()} ${path}`, op })),
    );
    const webhookOps = Object.values((doc as any).webhooks ?? {}).flatMap((item: any) => Object.values(item)) as any[];
    const ids = [...operations.map((o) => o.op.operationId), ...webhookOps.map((op) => op.operationId)];
    assert.deepEqual(operations.filter((o) => typeof o.op.operationId !== 'string').map((o) => o.where), [], 'every operation has an operationId');
    assert.equal(new Set(ids).size, ids.length, `operationIds are unique: ${ids.join(', ')}`);
    assert.ok(operations.length >= 36 && webhookOps.length === 2, `${operations.length} operations, ${webhookOps.length} webhook operations`);

    assert.ok(Array.isArray((doc as any).servers) && (doc as any).servers.length > 0, 'servers is set');

    const queryParam = (path: string, name: string) => doc.paths[path].get.parameters.find((p: any) => p.in === 'query' && p.name === name);
    for (const path of ['/asr/jobs', '/cache/list', '/system/events']) {
      for (const name of ['limit', 'offset']) {
        const param = queryParam(path, name);
        assert.ok(param, `${path} ${name}`);
        assert.notEqual(param.required, true, `${path} ${name} is optional`);
        assert.equal(typeof param.schema.default, 'number', `${path} ${name} has a default`);
      }
    }
    const format = queryParam('/asr/jobs/{jobId}/transcript', 'format');
    assert.notEqual(format.required, true);
    assert.equal(format.schema.default, 'vendorA');

    const transcribe = doc.paths['/asr/transcribe'].post;
    assert.match(JSON.stringify(transcribe.responses['202'].content['application/json'].schema), /#\/components\/schemas\/JobBatch/);
    const batch = doc.components.schemas.JobBatch as any;
    assert.deepEqual(Object.keys(batch.properties).sort(), ['jobs', 'rejected']);
    assert.deepEqual(batch.required, ['jobs']);

    const bodies = transcribe.requestBody.content;
    assert.deepEqual(Object.keys(bodies).sort(), ['application/json', 'application/octet-stream', 'audio/*', 'multipart/form-data']);
    const form = bodies['multipart/form-data'].schema;
    assert.equal(form.properties.audio.type, 'array');
    assert.equal(form.properties.audio.items.contentMediaType, 'application/octet-stream');
    assert.ok(form.properties.scrubaudio && !form.properties.text, 'form fields are the parameters (text is JSON only)');
    assert.ok(bodies['application/json'].schema.properties.text, 'a JSON body carries text');
    assert.equal(bodies['audio/*'].schema.type, 'string');

    const webhook = (doc as any).webhooks?.jobNotification;
    assert.ok(webhook?.post && webhook?.put, 'the notification is a webhook entry (POST and PUT)');
    assert.equal(webhook.post.requestBody.content['application/json'].schema.$ref, '#/components/schemas/EventRecord');
    assert.deepEqual(
      webhook.post.parameters.map((p: any) => p.name),
      ['webhook-id', 'webhook-timestamp', 'webhook-signature'],
    );

    for (const path of ['/health', '/ready']) assert.deepEqual(doc.paths[path].get.security, [], `${path} is public in the document`);
  });

  test(
    'every answer carries a media type the document declares for its status',
    () => {
      assert.deepEqual([...mediaTypeMismatches].sort(), []);
    },
  );
});

describe('public operations (sqlite)', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService('sqlite');
  });
  after(() => svc.close());

  test('the operations the document marks public answer without a key once keys exist; the others do not', async () => {
    await svc.services.store.apiKeys.create('ops', 'admin');
    const doc: Doc = json(await svc.request({ method: 'GET', url: '/openapi.json' }));
    const open = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, op]) => Array.isArray(op.security) && op.security.length === 0)
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    assert.deepEqual(open.sort(), ['GET /health', 'GET /ready']);
    for (const url of ['/health', '/ready']) {
      assert.equal((await svc.request({ method: 'GET', url })).statusCode, 200, url);
      // A public operation never answers 401/403, and its document does not list them; a keyed one does.
      assert.deepEqual(Object.keys(doc.paths[url].get.responses).filter((s) => s === '401' || s === '403'), [], url);
    }
    assert.ok(doc.paths['/asr/params'].get.responses['401'], 'a keyed operation documents 401');
    assert.equal((await svc.request({ method: 'GET', url: '/asr/params' })).statusCode, 401);
  });
});
