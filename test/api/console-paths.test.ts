// The addresses people type and browsers ask for: /console without its slash leads to the console (it answered
// 404), and /favicon.ico is an icon (it answered 404 on every page load), both without a key once keys exist.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ensureConsoleBuilt } from '../helpers/console.js';
import { startTestService, type TestService } from '../helpers/harness.js';

describe('console paths', () => {
  let svc: TestService;
  before(async () => {
    ensureConsoleBuilt();
    svc = await startTestService('sqlite', { workers: false });
    await svc.services.store.apiKeys.create('ops', 'admin');
  });
  after(async () => svc?.close());

  test('/console redirects to /console/, keeping the query', async () => {
    const bare = await svc.request({ method: 'GET', url: '/console' });
    assert.equal(bare.statusCode, 301);
    assert.equal(bare.headers.location, '/console/');
    const withQuery = await svc.request({ method: 'GET', url: '/console?view=jobs' });
    assert.equal(withQuery.statusCode, 301);
    assert.equal(withQuery.headers.location, '/console/?view=jobs');
    const page = await svc.request({ method: 'GET', url: String(bare.headers.location) });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /<title>Scrubline console<\/title>/);
  });

  test('/favicon.ico is a 16x16 icon, served without a key', async () => {
    const icon = await svc.request({ method: 'GET', url: '/favicon.ico' });
    assert.equal(icon.statusCode, 200);
    assert.equal(icon.headers['content-type'], 'image/x-icon');
    const body = icon.rawPayload;
    // ICONDIR: reserved 0, type 1 (icon), one image of 16x16 at 32 bits, its bytes all inside the file.
    assert.deepEqual([body.readUInt16LE(0), body.readUInt16LE(2), body.readUInt16LE(4)], [0, 1, 1]);
    assert.deepEqual([body[6], body[7], body.readUInt16LE(12)], [16, 16, 32]);
    assert.equal(body.readUInt32LE(18) + body.readUInt32LE(14), body.length);
  });
});
