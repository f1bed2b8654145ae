// Each client input that once made the service answer 500 (issue 15), now a 400 naming the field, on SQLite
// and PostgreSQL; plus the guards that keep the class closed: route declarations must bound their
// parameters, and a value the database refuses is a 400 while a true fault of the service stays a 500.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Fastify from 'fastify';
import type { LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import Type from 'typebox';
import { registerInputGuard, unboundedValues } from '../../src/api/inputGuard.js';
import { registerProblemHandlers } from '../../src/api/problems.js';
import { MAX_ID_LENGTH, MAX_JSON_DEPTH, paging } from '../../src/schema/bounds.js';
import { dialects, json, postgresAvailable, startTestService, TEST_DATABASE_URL, type TestService } from '../helpers/harness.js';

const MIB = 1 << 20;

function assertRefused(res: LightMyRequestResponse, pointer: string, status = 400) {
  assert.equal(res.statusCode, status, res.body);
  assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
  const problem = json(res);
  assert.ok(problem.errors?.some((e: { pointer: string }) => e.pointer === pointer), `names ${pointer}: ${res.body.slice(0, 500)}`);
}

for (const dialect of await dialects()) {
  describe(`client input that once answered 500 (${dialect})`, () => {
    let svc: TestService;
    let jobId: string;
    before(async () => {
      svc = await startTestService(dialect, { workers: false });
      const job = await svc.request({ method: 'POST', url: '/asr/transcribe', payload: { text: 'Agent: hello' } });
      assert.equal(job.statusCode, 202, job.body);
      jobId = json(job).jobId;
      const record = await svc.request({ method: 'POST', url: '/cache/post-call', payload: { eventId: 'known-event', message: 'hello' } });
      assert.equal(record.statusCode, 201, record.body);
    });
    after(() => svc.close());

    for (const list of ['/asr/jobs', '/system/events', '/cache/list']) {
      for (const offset of ['1e999', '1e20', '9223372036854775807', '2147483648', '-1', '1.5', 'NaN']) {
        test(`GET ${list}?offset=${offset} -> 400`, async () => {
          assertRefused(await svc.request({ method: 'GET', url: `${list}?offset=${offset}` }), '/query/offset');
        });
      }
      test(`GET ${list} at the largest offset -> 200, an empty page`, async () => {
        const res = await svc.request({ method: 'GET', url: `${list}?offset=2147483647` });
        assert.equal(res.statusCode, 200, res.body);
        const page = json(res);
        assert.deepEqual(page.jobs ?? page.events ?? page.entries, []);
      });
    }

    // The routes that take an id in their path or query: a NUL in it is a 400 (PostgreSQL text cannot hold one).
    const idRoutes = (id: string) => [
      { method: 'GET' as const, url: `/asr/jobs/${id}`, pointer: '/params/jobId' },
      { method: 'DELETE' as const, url: `/asr/jobs/${id}`, pointer: '/params/jobId' },
      { method: 'POST' as const, url: `/asr/jobs/${id}/cancel`, pointer: '/params/jobId' },
      { method: 'GET' as const, url: `/asr/jobs/${id}/transcript`, pointer: '/params/jobId' },
      { method: 'GET' as const, url: `/asr/jobs/${id}/audio`, pointer: '/params/jobId' },
      { method: 'GET' as const, url: `/system/cache/post-call/${id}`, pointer: '/params/eventId' },
      { method: 'GET' as const, url: `/cache/post-call/${id}`, pointer: '/params/eventId' },
      { method: 'GET' as const, url: `/cache/live/${id}`, pointer: '/params/key' },
      { method: 'GET' as const, url: `/system/get-parameter?name=model&sid=${id}`, pointer: '/query/sid' },
    ];
    for (const route of idRoutes('%00')) {
      test(`${route.method} ${route.url} (NUL in the id) -> 400`, async () => {
        assertRefused(await svc.request({ method: route.method, url: route.url }), route.pointer);
      });
    }
    test('a NUL in a query parameter nobody declared, or in its name -> 400 naming it', async () => {
      assertRefused(await svc.request({ method: 'GET', url: '/asr/jobs?anything=a%00' }), '/query/anything');
      assertRefused(await svc.request({ method: 'GET', url: '/asr/jobs?a%00=1' }), '/query/a\\0');
    });

    test('a NUL in the query of a raw upload -> 400 before the body is read: no upload left behind', async () => {
      const fs = await import('node:fs');
      const path = await import('node:path');
      const res = await svc.request({ method: 'POST', url: '/asr/transcribe?sid=p%00', headers: { 'content-type': 'audio/wav' }, payload: Buffer.alloc(4096) });
      assertRefused(res, '/query/sid');
      const tmp = path.join(svc.database.dataDir, 'tmp');
      assert.deepEqual(fs.existsSync(tmp) ? fs.readdirSync(tmp) : [], []);
    });

    test('a NUL after a real id is refused too, and the job is untouched', async () => {
      assertRefused(await svc.request({ method: 'DELETE', url: `/asr/jobs/${jobId}%00` }), '/params/jobId');
      assert.equal((await svc.request({ method: 'GET', url: `/asr/jobs/${jobId}` })).statusCode, 200);
    });

    test('an id longer than the bound in a path -> 400 naming it; a longer URL than the router takes -> 414', async () => {
      assertRefused(await svc.request({ method: 'GET', url: `/cache/post-call/${'e'.repeat(MAX_ID_LENGTH + 1)}` }), '/params/eventId');
      const huge = await svc.request({ method: 'GET', url: `/cache/post-call/${'e'.repeat(MIB)}` });
      assert.equal(huge.statusCode, 414, huge.body.slice(0, 300));
    });

    // JSON bodies: NUL in any string, and ids of 1 MiB.
    const bodies: { name: string; url: string; payload: object; pointer: string }[] = [
      { name: 'post-call eventId with a NUL', url: '/cache/post-call', payload: { eventId: 'a\u0000b' }, pointer: '/eventId' },
      { name: 'post-call eventId of 1 MiB', url: '/cache/post-call', payload: { eventId: 'e'.repeat(MIB) }, pointer: '/eventId' },
      { name: 'post-call (system path) eventId of 1 MiB', url: '/system/cache/post-call', payload: { eventId: 'e'.repeat(MIB) }, pointer: '/eventId' },
      { name: 'post-call transcript text with a NUL', url: '/cache/post-call', payload: { eventId: 'nul-text', utterances: [{ text: 'my card is \u0000 4111' }] }, pointer: '/utterances/0/text' },
      { name: 'post-call field name with a NUL', url: '/cache/post-call', payload: { eventId: 'nul-key', custom: { 'a\u0000': 1 } }, pointer: '/custom/a\\0' },
      { name: 'real-call engagementId with a NUL', url: '/cache/real-call', payload: { engagementId: 'call\u0000', text: 'hi' }, pointer: '/engagementId' },
      { name: 'real-call engagementId of 1 MiB', url: '/cache/real-call', payload: { engagementId: 'e'.repeat(MIB), text: 'hi' }, pointer: '/engagementId' },
      { name: 'real-call ucid of 1 MiB in a carried message', url: '/cache/real-call', payload: { realTimeMessage: { ucid: 'u'.repeat(MIB), text: 'hi' } }, pointer: '/realTimeMessage/ucid' },
      { name: 'set-parameter sid with a NUL', url: '/system/set-parameter', payload: { name: 'uttmaxsilence', value: 500, sid: 'p\u0000' }, pointer: '/sid' },
      { name: 'set-parameter sid of 1 MiB', url: '/system/set-parameter', payload: { name: 'uttmaxsilence', value: 500, sid: 's'.repeat(MIB) }, pointer: '/sid' },
      { name: 'set-parameter name of 1 MiB', url: '/system/set-parameter', payload: { name: 'n'.repeat(MIB), value: 1 }, pointer: '/name' },
      { name: 'transcribe sid of 1 MiB', url: '/asr/transcribe', payload: { text: 'hello', sid: 's'.repeat(MIB) }, pointer: '/sid' },
      { name: 'transcribe text with a NUL', url: '/asr/transcribe', payload: { text: 'Agent: hello\u0000' }, pointer: '/text' },
      // A lone surrogate is valid JSON but no character: it once reached encodeURIComponent (a 500; the fuzzer's find).
      { name: 'post-call eventId with a lone surrogate', url: '/cache/post-call', payload: { eventId: '\ud800' }, pointer: '/eventId' },
      { name: 'post-call transcript text with a lone surrogate', url: '/cache/post-call', payload: { eventId: 'lone', utterances: [{ text: 'card \udc00 4111' }] }, pointer: '/utterances/0/text' },
      { name: 'publish a project whose sid is 1 MiB', url: '/system/cache/v2/publish', payload: { data: JSON.stringify({ sid: 's'.repeat(MIB) }) }, pointer: '/data/sid' },
      // An endpoint that is no URL once answered 503 "the bucket could not be reached, try again" (the fuzzer's find).
      { name: 'a bucket folder with an endpoint that is not a URL', url: '/asr/transcribe', payload: { cloudStorageFolder: 'calls/in/', endpoint: 'r0myny5gt6k', apiKeyCloud: 'k', secretKeyCloud: 's' }, pointer: '/endpoint' },
      // A region with a space went into the host name: 503 "could not be reached" (the fuzzer's find, seed 99).
      { name: 'a bucket folder with a region that is no region name', url: '/asr/transcribe', payload: { cloudStorageFolder: 'jbq98', region: '59eg -p88zxjd2a-8z' }, pointer: '/region' },
      { name: 'a bucket folder with an endpoint that is not http(s)', url: '/asr/transcribe', payload: { cloudStorageFolder: 'calls/in/', endpoint: 'ftp://127.0.0.1/', apiKeyCloud: 'k', secretKeyCloud: 's' }, pointer: '/endpoint' },
    ];
    for (const c of bodies) {
      test(`${c.name} -> 400 naming ${c.pointer}`, async () => {
        assertRefused(await svc.request({ method: 'POST', url: c.url, payload: c.payload }), c.pointer);
      });
    }

    test('an upload whose file name holds a NUL -> 400 naming it, and no upload is left behind', async () => {
      const fs = await import('node:fs');
      const path = await import('node:path');
      const boundary = '----nul';
      const wav = Buffer.alloc(44);
      const payload = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="audio"; filename="call\u0000.wav"\r\nContent-Type: audio/wav\r\n\r\n`),
        wav,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const res = await svc.request({ method: 'POST', url: '/asr/transcribe', headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, payload });
      assertRefused(res, '/audio');
      const tmp = path.join(svc.database.dataDir, 'tmp');
      assert.deepEqual(fs.existsSync(tmp) ? fs.readdirSync(tmp) : [], []);
    });

    test('the same NUL as a JSON escape written by the client is refused the same way', async () => {
      const res = await svc.request({ method: 'POST', url: '/cache/post-call', headers: { 'content-type': 'application/json' }, payload: '{"eventId":"x","message":"a\\u0000b"}' });
      assertRefused(res, '/message');
      assert.equal((await svc.request({ method: 'GET', url: '/cache/post-call/x' })).statusCode, 404, 'nothing was stored');
    });

    test('numbers beyond what the store holds in a JSON body -> 400', async () => {
      for (const token of ['1e999', '9223372036854775807', '1e20']) {
        const res = await svc.request({ method: 'POST', url: '/cache/post-call', headers: { 'content-type': 'application/json' }, payload: `{"eventId":"big","segmentsCreated":${token}}` });
        assertRefused(res, '/segmentsCreated');
      }
    });

    test(`a JSON body nested deeper than ${MAX_JSON_DEPTH} levels -> 400, at any depth of nesting`, async () => {
      for (const depth of [MAX_JSON_DEPTH + 1, 100_000]) {
        const res = await svc.request({ method: 'POST', url: '/cache/post-call', headers: { 'content-type': 'application/json' }, payload: `{"eventId":"deep","custom":${'['.repeat(depth)}${']'.repeat(depth)}}` });
        assert.equal(res.statusCode, 400, res.body.slice(0, 300));
        assert.match(json(res).detail, /nested more than/);
      }
    });

    test('a bounded id at its largest is still served: stored and read back', async () => {
      const eventId = `é${'i'.repeat(MAX_ID_LENGTH - 1)}`;
      const res = await svc.request({ method: 'POST', url: '/cache/post-call', payload: { eventId, message: 'hello' } });
      assert.equal(res.statusCode, 201, res.body.slice(0, 300));
      const read = await svc.request({ method: 'GET', url: `/cache/post-call/${encodeURIComponent(eventId)}` });
      assert.equal(read.statusCode, 200, read.body.slice(0, 300));
      assert.equal(json(read).eventId, eventId);
    });

    test('the service still answers after all of it', async () => {
      assert.equal((await svc.request({ method: 'GET', url: '/health' })).statusCode, 200);
      assert.equal((await svc.request({ method: 'GET', url: `/asr/jobs/${jobId}` })).statusCode, 200);
    });
  });
}

describe('route declarations must bound their parameters', () => {
  test('an integer without a maximum, a string without a maxLength are named', () => {
    const query = Type.Object({ page: Type.Integer({ minimum: 0 }), q: Type.String(), kind: Type.Optional(Type.Enum(['a', 'b'])), ...paging(10, 5) });
    assert.deepEqual(unboundedValues(query, 'querystring'), ['querystring.page: a number without a maximum', 'querystring.q: a string without a maxLength']);
  });

  test('a route with an unbounded query parameter fails when it is registered', async () => {
    const app = Fastify();
    registerInputGuard(app);
    assert.throws(
      () => app.get('/bad', { schema: { querystring: Type.Object({ offset: Type.Integer({ minimum: 0 }) }) } }, async () => ({})),
      /GET \/bad declares unbounded input.*offset: a number without a maximum/,
    );
    await app.close();
  });
});

describe('errors of the database: a refused value is the client\'s 400, a fault of the service stays 500', async () => {
  const havePostgres = await postgresAvailable();
  let app: ReturnType<typeof Fastify>;
  let pool: pg.Pool;
  before(async () => {
    if (!havePostgres) return;
    pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 2 });
    app = Fastify();
    registerProblemHandlers(app);
    // Routes that reach the database with no validation in front, as a gap in validation would.
    app.get('/echo', async (request: { query: unknown }) => (await pool.query('select $1::text as v', [(request.query as { v: string }).v])).rows[0]);
    app.get('/fault', async () => (await pool.query('select 1 / 0 as v')).rows[0]);
    await app.ready();
  });
  after(async () => {
    await app?.close();
    await pool?.end();
  });

  test('a NUL that reached PostgreSQL -> 400', { skip: !havePostgres && 'no PostgreSQL' }, async () => {
    const res = await app.inject({ method: 'GET', url: '/echo?v=a%00b' });
    assert.equal(res.statusCode, 400, res.body);
    assert.match(json(res).detail, /cannot store/);
  });

  test('a query that is wrong in itself (division by zero) -> 500', { skip: !havePostgres && 'no PostgreSQL' }, async () => {
    const res = await app.inject({ method: 'GET', url: '/fault' });
    assert.equal(res.statusCode, 500, res.body);
  });
});
