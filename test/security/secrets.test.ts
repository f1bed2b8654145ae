// A secret sent in any credential field appears in no response, no log line and nowhere in clear on disk.
// Runs the real server process with the most verbose logging, so every log line it writes is checked.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startServerProcess, type ServerProcess } from '../helpers/cli.js';
import { testDatabase, type TestDatabase } from '../helpers/harness.js';

const secret = (field: string) => `S3cr3t-${field}-7f1c9a2e84d0b6`;
const FIELDS = ['appKey', 'appSecret', 'acessKey', 'secretKey', 'accessUrl', 'apiKey', 'apiKeyCloud', 'secretKeyCloud', 'engine_token', 'token'];
const SECRETS = [...FIELDS.map(secret), secret('auth_header'), secret('param')];

const record = {
  eventId: 'secret-test-1',
  campaign: {
    name: 'Secrets',
    appKey: secret('appKey'),
    appSecret: secret('appSecret'),
    acessKey: secret('acessKey'),
    secretKey: secret('secretKey'),
    accessUrl: secret('accessUrl'),
  },
  systemSettings: {
    apiKey: secret('apiKey'),
    secretKey: secret('secretKey'),
    apiKeyCloud: secret('apiKeyCloud'),
    secretKeyCloud: secret('secretKeyCloud'),
  },
  processJob: {
    jobId: 'j-1',
    engine_token: secret('engine_token'),
    request: { notification: { url: 'https://hooks.example.com/x', method: 'POST', auth_headers: [`Authorization: Bearer ${secret('auth_header')}`] } },
  },
  vendorBTranscript: { streamtags: { token: secret('token') } },
  // No sid: a sid must name a published project (a 400 otherwise), and this record is about credentials.
  redactionRequest: { notification: { auth_headers: [`X-Token: ${secret('auth_header')}`] } },
};

describe('credentials never leave', () => {
  let db: TestDatabase;
  let server: ServerProcess;
  const bodies: string[] = [];

  async function call(method: string, url: string, body?: unknown, raw?: string): Promise<Response> {
    const res = await fetch(server.url + url, {
      method,
      headers: body !== undefined || raw !== undefined ? { 'content-type': 'application/json' } : {},
      body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
    });
    const text = await res.text();
    bodies.push(`${method} ${url} ${res.status} ${text}`);
    return new Response(text, { status: res.status, headers: res.headers });
  }

  before(async () => {
    db = await testDatabase('sqlite');
    server = await startServerProcess({ ...db.env, LOG_LEVEL: 'trace', SCRUBLINE_SECRET_KEY: 'log-test-key' });
  });
  after(async () => {
    await server.stop();
    await db.drop();
  });

  test('in every response, masked', async () => {
    const posted = await call('POST', '/system/cache/post-call', record);
    assert.equal(posted.status, 201);
    const answer = await posted.json();
    assert.equal(answer.campaign.appKey, `****${secret('appKey').slice(-4)}`);
    assert.equal(answer.processJob.request.notification.auth_headers[0], `Authorization: ****${secret('auth_header').slice(-4)}`);
    await call('GET', '/cache/post-call/secret-test-1');
    await call('POST', '/cache/post-call', { ...record, eventId: 'secret-test-2', campaign: { ...record.campaign, active: 'nope' } });
    await call('POST', '/cache/post-call', undefined, `{"campaign":{"appKey":"${secret('appKey')}" "broken"}}`);
    await call('POST', '/cache/real-call', { realTimeMessage: { ucid: 'u-9', text: 'hello', token: secret('token') } });
    await call('GET', '/cache/live/u-9');
    for (const field of ['apiKey', 'secretKey', 'apiKeyCloud', 'secretKeyCloud']) {
      const set = await call('POST', '/system/set-parameter', { name: field, value: secret(field) });
      assert.equal(set.status, 200);
      const got = await (await call('GET', `/system/get-parameter?name=${field}`)).json();
      assert.equal(got.value, `****${secret(field).slice(-4)}`);
    }
    await call('POST', '/system/set-parameter', { name: 'engine_token', value: secret('param'), sid: 'p' });
    await call('GET', '/system/get-parameter?name=engine_token&sid=p');
    await call('GET', '/system/get-parameter');
    const settings = await (await call('GET', '/system/get-settings')).json();
    assert.equal(settings.apiKeyCloud, `****${secret('apiKeyCloud').slice(-4)}`);
    await call('GET', '/system/events?limit=1000');
    await call('GET', '/cache/list');
    await call('GET', '/system/cache');
    await call('GET', '/asr/statusfull');

    const all = bodies.join('\n');
    for (const value of SECRETS) assert.ok(!all.includes(value), `a response contains ${value}`);
  });

  test('in no log line', async () => {
    assert.equal(await server.stop('SIGTERM'), 0, 'a graceful stop exits 0');
    const log = server.output();
    assert.match(log, /"msg":"stopped"/);
    assert.ok(log.split('\n').filter((l) => l.includes('"req"')).length >= 10, 'the log recorded the requests');
    for (const value of SECRETS) assert.ok(!log.includes(value), `the log contains ${value}`);
    // The stored values are sealed: not in the database file or its journal in clear.
    for (const name of fs.readdirSync(db.dataDir)) {
      const bytes = fs.readFileSync(path.join(db.dataDir, name)).toString('latin1');
      for (const value of SECRETS) assert.ok(!bytes.includes(value), `${name} holds ${value} in clear`);
    }
  });
});
