// While no API key exists a client on this machine has full access, and a browser here is such a client for any
// page it opens. What a page of another origin could make it send is refused (src/api/browserGuard.ts): a name
// that is not this service's (DNS rebinding: 421, public pages too), and a write or WebSocket whose browser says
// it comes from another origin (cross-site request forgery: 403, nothing done). This service's own pages and
// clients that are not browsers (no Origin, no Sec-Fetch-Site: curl, SDKs) are served as before. Once a key
// exists a call needs one that no page can add: the checks stand down, unless SCRUBLINE_ALLOWED_HOSTS asks for
// the names to be checked anyway.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import WebSocket from 'ws';
import { dialects, json, startTestService, type TestService } from '../helpers/harness.js';
import { multipart } from '../helpers/multipart.js';

/** A job from a client's bucket, the request a forged form would send (the bucket fetch is the SSRF). */
const bucketJob = () => multipart({ cloudStoragePath: 's3://some-bucket/call.wav' }, []);

async function jobCount(svc: TestService): Promise<number> {
  return (await svc.services.store.jobs.list({ limit: 1000, offset: 0 })).total;
}

/** The status a WebSocket upgrade gets: 101 when it opens, else the HTTP status that refused it. */
function upgradeStatus(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers });
    socket.on('open', () => {
      socket.close();
      resolve(101);
    });
    socket.on('unexpected-response', (_request, response) => {
      resolve(response.statusCode ?? 0);
      response.resume();
      socket.terminate();
    });
    socket.on('error', (error) => reject(error));
  });
}

for (const dialect of await dialects()) {
  describe(`browser guard, no key exists (${dialect})`, () => {
    let svc: TestService;
    before(async () => {
      svc = await startTestService(dialect, { workers: false, env: { SCRUBLINE_ALLOWED_HOSTS: 'scrub.internal,*.corp.example', SCRUBLINE_AUTH_CACHE_MS: '0' } });
    });
    after(async () => svc?.close());

    test('a name that could be any site is refused with 421, public pages included', async () => {
      for (const url of ['/asr/jobs', '/system/get-settings', '/console/', '/health', '/openapi.json']) {
        const res = await svc.request({ method: 'GET', url, headers: { host: 'attacker.example:8080' } });
        assert.equal(res.statusCode, 421, `${url}: ${res.body}`);
        assert.match(res.headers['content-type'] as string, /problem\+json/);
        assert.match(json(res).detail, /SCRUBLINE_ALLOWED_HOSTS/);
        assert.equal(json(res).title, 'Misdirected request');
      }
      const res = await svc.request({ method: 'POST', url: '/system/keys', payload: { name: 'rebound', scope: 'admin' }, headers: { host: 'attacker.example' } });
      assert.equal(res.statusCode, 421);
      assert.equal((await svc.services.store.apiKeys.list()).length, 0, 'no key was made');
      // A name that only looks like an allowed one.
      for (const host of ['scrub.internal.attacker.example', 'corp.example', 'localhost.attacker.example', 'evilcorp.example']) {
        assert.equal((await svc.request({ method: 'GET', url: '/asr/jobs', headers: { host } })).statusCode, 421, host);
      }
    });

    test('localhost, IP addresses and the listed names are served', async () => {
      for (const host of ['localhost', 'localhost:8080', 'LOCALHOST.', 'console.localhost:3000', '127.0.0.1:8080', '[::1]:8080', '10.1.2.3', 'scrub.internal', 'Scrub.Internal:443', 'a.b.corp.example']) {
        const res = await svc.request({ method: 'GET', url: '/asr/jobs', headers: { host } });
        assert.equal(res.statusCode, 200, `${host}: ${res.body}`);
      }
    });

    test('a write from a page of another origin is refused with 403 and does nothing', async () => {
      const forged: Record<string, string>[] = [
        { origin: 'http://attacker.example' },
        { origin: 'null' }, // a sandboxed frame, a data: page
        { origin: 'http://localhost:3000' }, // another port is another origin
        { origin: 'https://localhost' },
        { 'sec-fetch-site': 'cross-site' },
        { 'sec-fetch-site': 'same-site', origin: 'http://localhost:80' },
      ];
      for (const headers of forged) {
        const form = bucketJob();
        const submit = await svc.request({ method: 'POST', url: '/asr/transcribe', payload: form.payload, headers: { ...form.headers, ...headers } });
        assert.equal(submit.statusCode, 403, `${JSON.stringify(headers)}: ${submit.body}`);
        assert.equal(json(submit).reason, 'cross_origin');
        const key = await svc.request({ method: 'POST', url: '/system/keys', payload: { name: 'forged', scope: 'admin' }, headers });
        assert.equal(key.statusCode, 403, JSON.stringify(headers));
        // A body-less POST (a form with no field) and a DELETE.
        assert.equal((await svc.request({ method: 'POST', url: '/asr/jobs/some-job/cancel', headers })).statusCode, 403);
        assert.equal((await svc.request({ method: 'DELETE', url: '/asr/jobs/some-job', headers })).statusCode, 403);
      }
      assert.equal(await jobCount(svc), 0, 'no job was made');
      assert.equal((await svc.services.store.apiKeys.list()).length, 0, 'no key was made');
      // Reading is not refused (a page cannot read another origin's answers).
      assert.equal((await svc.request({ method: 'GET', url: '/asr/jobs', headers: { origin: 'http://attacker.example', 'sec-fetch-site': 'cross-site' } })).statusCode, 200);
    });

    test("this service's own pages and clients that are not browsers still write", async () => {
      const own: Record<string, string>[] = [
        {}, // curl, an SDK
        { 'sec-fetch-site': 'same-origin', origin: 'null' }, // the console (referrer policy no-referrer)
        { origin: 'http://localhost' }, // Host localhost:80 (the injected default)
        { origin: 'http://localhost:80', host: 'localhost' },
        { origin: 'http://127.0.0.1:8080', host: '127.0.0.1:8080' },
        { origin: 'https://scrub.internal', host: 'scrub.internal' }, // behind a TLS proxy on this machine
      ];
      let made = 0;
      for (const headers of own) {
        const form = bucketJob();
        const res = await svc.request({ method: 'POST', url: '/asr/transcribe', payload: form.payload, headers: { ...form.headers, ...headers } });
        assert.equal(res.statusCode, 202, `${JSON.stringify(headers)}: ${res.body}`);
        made++;
      }
      assert.equal(await jobCount(svc), made);
    });

    test('a WebSocket from another origin is refused on upgrade; one without Origin or from this origin opens', async () => {
      const base = (await svc.app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws');
      const host = new URL(base).host;
      assert.equal(await upgradeStatus(`${base}/asr/stream`, { origin: 'http://attacker.example' }), 403);
      assert.equal(await upgradeStatus(`${base}/asr/stream`, { origin: 'http://localhost:1' }), 403);
      assert.equal(await upgradeStatus(`${base}/asr/stream/twilio`, { 'sec-fetch-site': 'cross-site', origin: 'http://attacker.example' }), 403);
      assert.equal(await upgradeStatus(`${base}/asr/stream`, { host: 'attacker.example' }), 421);
      assert.equal(await upgradeStatus(`${base}/asr/stream`, {}), 101);
      assert.equal(await upgradeStatus(`${base}/asr/stream`, { origin: `http://${host}` }), 101);
    });
  });

  describe(`browser guard, once a key exists (${dialect})`, () => {
    let svc: TestService;
    let key: string;
    before(async () => {
      svc = await startTestService(dialect, { workers: false, env: { SCRUBLINE_AUTH_CACHE_MS: '0' } });
      key = (await svc.services.store.apiKeys.create('admin', 'admin')).key;
    });
    after(async () => svc?.close());

    test('any name is served and a write with a key is not forgery, whatever its Origin', async () => {
      const auth = { authorization: `Bearer ${key}` };
      assert.equal((await svc.request({ method: 'GET', url: '/asr/jobs', headers: { ...auth, host: 'scrubline.prod.example' } })).statusCode, 200);
      const form = bucketJob();
      const res = await svc.request({
        method: 'POST',
        url: '/asr/transcribe',
        payload: form.payload,
        headers: { ...form.headers, ...auth, origin: 'https://integration.example', 'sec-fetch-site': 'cross-site' },
      });
      assert.equal(res.statusCode, 202, res.body);
      // Without a key it is a 401, as any call.
      assert.equal((await svc.request({ method: 'POST', url: '/asr/jobs/x/cancel', headers: { origin: 'http://attacker.example' } })).statusCode, 401);
    });

    test('with SCRUBLINE_ALLOWED_HOSTS the names are checked with keys too', async () => {
      const strict = await startTestService(dialect, { workers: false, database: svc.database, env: { SCRUBLINE_ALLOWED_HOSTS: 'scrub.internal' } });
      try {
        const auth = { authorization: `Bearer ${key}` };
        assert.equal((await strict.request({ method: 'GET', url: '/asr/jobs', headers: { ...auth, host: 'attacker.example' } })).statusCode, 421);
        assert.equal((await strict.request({ method: 'GET', url: '/asr/jobs', headers: { ...auth, host: 'scrub.internal:8443' } })).statusCode, 200);
      } finally {
        await strict.close();
      }
    });
  });
}

test('SCRUBLINE_ALLOWED_HOSTS takes names only', async () => {
  const { loadConfig, ConfigError } = await import('../../src/config.js');
  assert.deepEqual(loadConfig({ SCRUBLINE_ALLOWED_HOSTS: ' Scrub.Internal , *.corp.example,* ' }).allowedHosts, ['scrub.internal', '*.corp.example', '*']);
  assert.deepEqual(loadConfig({}).allowedHosts, []);
  for (const bad of ['scrub.internal:8080', 'http://scrub.internal', 'a b', '*corp.example']) {
    assert.throws(() => loadConfig({ SCRUBLINE_ALLOWED_HOSTS: bad }), ConfigError, bad);
  }
});
