// No API key, secret, query-string value or request body in any log line, at the most verbose level (trace):
// the service runs with its own logger at LOG_LEVEL=trace and every line it writes is captured, while
// requests carry an API key in every place a client might put one (Authorization, X-API-Key, a query
// parameter, a form field) and seeded values in `text` and `notification.auth_headers` (JSON, form, query).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { json, startTestService, type TestService } from '../helpers/harness.js';
import { multipart } from '../helpers/multipart.js';
import { censorLogValue, loggableRequestUrl } from '../../src/observability/logger.js';

const seed = (where: string) => `Seed-${where}-4f8b21c7e9`;

describe('logs at trace hold no secret', () => {
  let svc: TestService;
  const lines: string[] = [];
  let key: string;
  const seeds: string[] = [];
  const seeded = (where: string) => {
    seeds.push(seed(where));
    return seed(where);
  };

  before(async () => {
    svc = await startTestService('sqlite', { env: { LOG_LEVEL: 'trace' }, logLines: lines });
    key = (await svc.services.store.apiKeys.create('logs', 'admin')).key;
    seeds.push(key);
  });
  after(() => svc.close());

  test('requests with keys, texts and auth headers everywhere leave none of them in the log', async () => {
    const bearer = { authorization: `Bearer ${key}` };
    const hook = 'https://hooks.example.com/logs';
    // Multipart text job: key in the header and a form field, text and auth headers as form fields.
    const form = multipart(
      { text: `my card is ${seeded('form-text')}`, api_key: key, 'notification.url': hook, 'notification.auth_headers': `X-Token: ${seeded('form-auth')}` },
      [],
    );
    const formJob = await svc.request({ method: 'POST', url: '/asr/transcribe?wait=300', headers: { ...form.headers, ...bearer }, payload: form.payload });
    assert.equal(formJob.statusCode, 200, formJob.body);
    // Multipart with an (unusable) file: the parser logs its options, headers included, at trace.
    const upload = multipart({ api_key: key }, [{ name: 'audio', filename: 'x.wav', content: Buffer.from(`RIFF${seeded('file-bytes')}`) }]);
    const refused = await svc.request({
      method: 'POST',
      url: `/asr/transcribe?api_key=${key}&notification.auth_headers=${encodeURIComponent(`X-Token: ${seeded('query-auth')}`)}&notification.url=${encodeURIComponent(hook)}`,
      headers: { ...upload.headers, 'x-api-key': key },
      payload: upload.payload,
    });
    assert.ok(refused.statusCode >= 400 && refused.statusCode < 500, refused.body);
    // JSON body, and the text in the query string.
    const body = await svc.request({
      method: 'POST',
      url: `/asr/transcribe?wait=300&text=${encodeURIComponent(seeded('query-text'))}`,
      headers: bearer,
      payload: { text: `call me at ${seeded('json-text')}`, notification: { url: hook, auth_headers: [`Authorization: Bearer ${seeded('json-auth')}`] } },
    });
    assert.equal(body.statusCode, 200, body.body);
    // A key in the query only (refused), a wrong key in the header (refused), a read with the key in the query.
    assert.equal((await svc.request({ method: 'GET', url: `/asr/jobs?api_key=${key}` })).statusCode, 401);
    assert.equal((await svc.request({ method: 'GET', url: '/asr/jobs', headers: { authorization: `Bearer ${seeded('wrong-key')}` } })).statusCode, 401);
    // A key in the query beside a valid header: the list's query string is closed, so the parameter is refused by
    // name (400), and the request is still logged without its values.
    const keyInQuery = await svc.request({ method: 'GET', url: `/asr/jobs?api_key=${key}&limit=5`, headers: bearer });
    assert.equal(keyInQuery.statusCode, 400, keyInQuery.body);
    assert.match(keyInQuery.body, /api_key/);
    assert.ok(!keyInQuery.body.includes(key), 'the answer does not echo the key');
    const job = json(body);
    assert.equal((await svc.request({ method: 'GET', url: `/asr/jobs/${job.jobId}/transcript?format=text`, headers: bearer })).statusCode, 200);

    const log = lines.join('');
    assert.match(log, /"level":10,/, 'trace lines were written');
    assert.match(log, /Providing options to busboy/, 'the multipart parser logged its options (with the request headers)');
    assert.ok(lines.filter((l) => l.includes('"req"')).length >= 7, 'the requests were logged');
    assert.match(log, /"url":"\/asr\/jobs\?api_key=\*\*\*\*&limit=\*\*\*\*"/, 'a request is logged with its query names only');
    for (const value of seeds) assert.ok(!log.includes(value), `a log line holds ${value}`);
    for (const value of [key.slice(0, 16), encodeURIComponent(key)]) assert.ok(!log.includes(value), 'a log line holds part of the API key');
  });

  test('the censoring itself: any depth, any header spelling, query values, inline bearer tokens', () => {
    assert.equal(loggableRequestUrl('/a/b?api_key=k1&text=hello%20there&flag&=x'), '/a/b?api_key=****&text=****&****&****');
    assert.equal(loggableRequestUrl('/plain/path'), '/plain/path');
    // An API key pasted into a path (where an id belongs) is censored too; a key's 10-character prefix stays.
    const pasted = `slk_${'A1b2-C3_d4'.repeat(4)}xyz`;
    assert.equal(loggableRequestUrl(`/system/keys/${pasted}?x=1`), '/system/keys/slk_****?x=****');
    assert.equal(loggableRequestUrl('/system/keys/slk_Ab3dEf'), '/system/keys/slk_Ab3dEf');
    assert.ok(!JSON.stringify(censorLogValue({ msg: `no key ${pasted} here` })).includes(pasted.slice(0, 16)));
    const live = { headers: { authorization: 'Bearer k2', 'X-Api-Key': 'k3', host: 'h' } };
    const censored = JSON.stringify(
      censorLogValue({ busboyOptions: live, deep: [{ a: { b: { notification: { auth_headers: ['X: k4'] } } } }], message: 'sent Bearer k5 twice', url: '/x?token=k6' }),
    );
    for (const value of ['k2', 'k3', 'k4', 'k5', 'k6']) assert.ok(!censored.includes(value), `${value} in ${censored}`);
    assert.match(censored, /"host":"h"/, 'what is not secret stays');
    assert.equal(live.headers.authorization, 'Bearer k2', 'the logged object itself is not changed');
  });
});
