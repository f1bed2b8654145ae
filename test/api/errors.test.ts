// Whatever a client sends, the answer is a precise 4xx problem, never a 500, and the server keeps serving.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { json, startTestService, type TestService } from '../helpers/harness.js';

describe('client errors', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService('sqlite', { env: { SCRUBLINE_MAX_JSON_BYTES: String(64 * 1024) } });
  });
  after(() => svc.close());

  const cases: { name: string; method: 'GET' | 'POST'; url: string; headers?: Record<string, string>; payload?: string; status: number; detail?: RegExp; pointer?: string }[] = [
    { name: 'malformed JSON', method: 'POST', url: '/cache/post-call', headers: { 'content-type': 'application/json' }, payload: '{"campaign": {', status: 400, detail: /not valid JSON/ },
    { name: 'empty JSON body', method: 'POST', url: '/cache/post-call', headers: { 'content-type': 'application/json' }, payload: '', status: 400 },
    { name: 'wrong content type', method: 'POST', url: '/cache/post-call', headers: { 'content-type': 'text/plain' }, payload: 'hello', status: 415, detail: /text\/plain/ },
    { name: 'xml', method: 'POST', url: '/system/cache/v2/publish', headers: { 'content-type': 'application/xml' }, payload: '<a/>', status: 415 },
    { name: 'oversized body', method: 'POST', url: '/cache/post-call', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ message: 'x'.repeat(70 * 1024) }), status: 413 },
    { name: 'array instead of record', method: 'POST', url: '/cache/post-call', headers: { 'content-type': 'application/json' }, payload: '[]', status: 400, pointer: '/' },
    { name: 'null body', method: 'POST', url: '/cache/post-call', headers: { 'content-type': 'application/json' }, payload: 'null', status: 400 },
    { name: 'string where object', method: 'POST', url: '/cache/post-call', headers: { 'content-type': 'application/json' }, payload: '{"campaign":"acme"}', status: 400, pointer: '/campaign' },
    { name: 'number as string is not coerced', method: 'POST', url: '/cache/post-call', headers: { 'content-type': 'application/json' }, payload: '{"segmentsCreated":"3"}', status: 400, pointer: '/segmentsCreated' },
    { name: 'fraction for integer', method: 'POST', url: '/cache/post-call', headers: { 'content-type': 'application/json' }, payload: '{"segmentsCreated":1.5}', status: 400, pointer: '/segmentsCreated' },
    { name: 'bad date-time', method: 'POST', url: '/cache/post-call', headers: { 'content-type': 'application/json' }, payload: '{"createdAt":"yesterday"}', status: 400, pointer: '/createdAt' },
    { name: 'publish without data', method: 'POST', url: '/system/cache/v2/publish', headers: { 'content-type': 'application/json' }, payload: '{}', status: 400, pointer: '/data' },
    { name: 'set-parameter without name', method: 'POST', url: '/system/set-parameter', headers: { 'content-type': 'application/json' }, payload: '{"value":1}', status: 400, pointer: '/name' },
    { name: 'engine parameter of the wrong type', method: 'POST', url: '/system/set-parameter', headers: { 'content-type': 'application/json' }, payload: '{"name":"uttmaxsilence","value":"long"}', status: 400, pointer: '/value' },
    { name: 'unknown parameter', method: 'GET', url: '/system/get-parameter?name=nosuchthing', status: 404 },
    { name: 'bad paging', method: 'GET', url: '/cache/list?limit=0', status: 400, pointer: '/query/limit' },
    { name: 'bad cache kind', method: 'GET', url: '/cache/list?kind=everything', status: 400, pointer: '/query/kind' },
    { name: 'unknown record', method: 'GET', url: '/cache/post-call/nope', status: 404 },
    { name: 'unknown route', method: 'GET', url: '/asr/nothing-here', status: 404 },
    { name: 'real-call without a conversation key', method: 'POST', url: '/cache/real-call', headers: { 'content-type': 'application/json' }, payload: '{"text":"hi"}', status: 400, pointer: '/engagementId' },
    { name: 'real-call with a wrong type', method: 'POST', url: '/cache/real-call', headers: { 'content-type': 'application/json' }, payload: '{"realTimeMessage":{"ucid":"u","isFinal":"yes"}}', status: 400, pointer: '/realTimeMessage/isFinal' },
    { name: 'real-call not an object', method: 'POST', url: '/cache/real-call', headers: { 'content-type': 'application/json' }, payload: '"hello"', status: 400 },
    { name: 'transcribe with neither audio nor text', method: 'POST', url: '/asr/transcribe', headers: { 'content-type': 'multipart/form-data; boundary=x' }, payload: '--x--\r\n', status: 400, pointer: '/text' },
    { name: 'transcribe with a broken multipart body', method: 'POST', url: '/asr/transcribe', headers: { 'content-type': 'multipart/form-data; boundary=x' }, payload: '--x\r\nContent-Disposition: form-data; name="audio"; filename="a.wav"\r\n\r\nRIFF', status: 400 },
    { name: 'transcribe with an unknown job format', method: 'GET', url: '/asr/jobs/x/transcript?format=pdf', status: 400, pointer: '/query/format' },
    { name: 'an unknown job', method: 'GET', url: '/asr/jobs/nope', status: 404 },
  ];

  for (const c of cases) {
    test(`${c.name} -> ${c.status}`, async () => {
      const res = await svc.request({ method: c.method, url: c.url, headers: c.headers, payload: c.payload });
      assert.equal(res.statusCode, c.status, res.body);
      assert.match(res.headers['content-type'] as string, /^application\/problem\+json/);
      const problem = json(res);
      assert.equal(problem.status, c.status);
      assert.equal(typeof problem.title, 'string');
      assert.equal(typeof problem.type, 'string');
      if (c.detail) assert.match(problem.detail, c.detail);
      if (c.pointer) assert.ok(problem.errors?.some((e: { pointer: string }) => e.pointer === c.pointer), `names ${c.pointer}: ${res.body}`);
    });
  }

  test('the service still answers after all of it', async () => {
    const res = await svc.request({ method: 'GET', url: '/health' });
    assert.equal(res.statusCode, 200);
  });
});

describe('upload limits on raw bodies', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService('sqlite', { env: { SCRUBLINE_MAX_UPLOAD_BYTES: String(32 * 1024) } });
  });
  after(() => svc.close());

  test('a raw audio body over the upload limit is a 413 and leaves no file behind', async () => {
    const res = await svc.request({ method: 'POST', url: '/asr/transcribe', headers: { 'content-type': 'audio/wav' }, payload: Buffer.alloc(64 * 1024, 7) });
    assert.equal(res.statusCode, 413, res.body);
    const fs = await import('node:fs');
    const path = await import('node:path');
    const tmp = path.join(svc.database.dataDir, 'tmp');
    assert.deepEqual(fs.existsSync(tmp) ? fs.readdirSync(tmp) : [], []);
  });
});
