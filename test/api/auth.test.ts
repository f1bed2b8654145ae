// API keys: made, listed and revoked with the real CLI; scopes enforced per route; loopback-only while no
// key exists; keys stored hashed.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { runCli } from '../helpers/cli.js';
import { dialects, json, startTestService, type TestService } from '../helpers/harness.js';

const record = { conversationId: 'c-1', campaign: { name: 'Auth test' } };
const publishBody = { data: JSON.stringify({ sid: 'auth-project', rules: [{ name: 'Person', active: true }] }) };

for (const dialect of await dialects()) {
  describe(`auth (${dialect})`, () => {
    let svc: TestService;
    let env: Record<string, string>;
    const keys: Record<string, { id: string; key: string; prefix: string }> = {};

    before(async () => {
      // No cache of key lookups: revocation must show at once in this test.
      svc = await startTestService(dialect, { env: { SCRUBLINE_AUTH_CACHE_MS: '0' } });
      env = { ...svc.database.env, SCRUBLINE_SECRET_KEY: 'test-secret-key' };
    });
    after(() => svc.close());

    test('with no key, loopback clients are served and others refused', async () => {
      const local = await svc.request({ method: 'GET', url: '/system/get-settings' });
      assert.equal(local.statusCode, 200);
      const remote = await svc.request({ method: 'GET', url: '/system/get-settings', remoteAddress: '10.1.2.3' });
      assert.equal(remote.statusCode, 401);
      assert.match(json(remote).detail, /scrubline keys create/);
    });

    test('the CLI creates keys, shown once and stored only as hashes', async () => {
      for (const scope of ['read', 'submit', 'admin']) {
        const created = runCli(['keys', 'create', '--scope', scope, '--name', `${scope} key`, '--json'], env);
        assert.equal(created.status, 0, created.stderr);
        keys[scope] = JSON.parse(created.stdout);
        assert.match(keys[scope].key, /^slk_/);
      }
      const listed = runCli(['keys', 'list', '--json'], env);
      assert.equal(listed.status, 0, listed.stderr);
      const list = JSON.parse(listed.stdout);
      assert.equal(list.length, 3);
      for (const { key } of Object.values(keys)) assert.ok(!listed.stdout.includes(key), 'list never shows a key');
      const rows = await svc.services.store.database.db.selectFrom('api_keys').selectAll().execute();
      const stored = JSON.stringify(rows);
      for (const { key } of Object.values(keys)) assert.ok(!stored.includes(key), 'the store holds no key in clear');
      const bad = runCli(['keys', 'create', '--scope', 'root'], env);
      assert.notEqual(bad.status, 0);
      assert.match(bad.stderr, /scope must be one of read, submit, admin/);
    });

    test('once a key exists, a call without one is 401, even from loopback', async () => {
      const res = await svc.request({ method: 'GET', url: '/asr/params' });
      assert.equal(res.statusCode, 401);
      assert.equal(res.headers['www-authenticate'], 'Bearer');
      assert.match(res.headers['content-type'] as string, /problem\+json/);
      const wrong = await svc.request({ method: 'GET', url: '/asr/params', headers: { authorization: 'Bearer slk_not_a_key' } });
      assert.equal(wrong.statusCode, 401);
    });

    test('health, the OpenAPI document and the docs page need no key', async () => {
      for (const url of ['/health', '/openapi.json', '/docs']) {
        const res = await svc.request({ method: 'GET', url });
        assert.ok(res.statusCode === 200 || res.statusCode === 302, `${url} -> ${res.statusCode}`);
      }
    });

    test('a read key reads but cannot submit or publish', async () => {
      const auth = { authorization: `Bearer ${keys.read.key}` };
      assert.equal((await svc.request({ method: 'GET', url: '/asr/params', headers: auth })).statusCode, 200);
      assert.equal((await svc.request({ method: 'GET', url: '/cache/list', headers: auth })).statusCode, 200);
      const publish = await svc.request({ method: 'POST', url: '/system/cache/v2/publish', headers: auth, payload: publishBody });
      assert.equal(publish.statusCode, 403);
      assert.match(json(publish).detail, /"admin" scope/);
      const post = await svc.request({ method: 'POST', url: '/cache/post-call', headers: auth, payload: record });
      assert.equal(post.statusCode, 403);
    });

    test('a submit key posts records but cannot publish', async () => {
      const auth = { 'x-api-key': keys.submit.key };
      assert.equal((await svc.request({ method: 'POST', url: '/cache/post-call', headers: auth, payload: record })).statusCode, 201);
      const publish = await svc.request({ method: 'POST', url: '/system/cache/v2/publish', headers: auth, payload: publishBody });
      assert.equal(publish.statusCode, 403);
    });

    test('an admin key publishes and does everything else', async () => {
      const auth = { authorization: `Bearer ${keys.admin.key}` };
      const publish = await svc.request({ method: 'POST', url: '/system/cache/v2/publish', headers: auth, payload: publishBody });
      assert.equal(publish.statusCode, 200, publish.body);
      assert.equal((await svc.request({ method: 'POST', url: '/cache/post-call', headers: auth, payload: record })).statusCode, 201);
      assert.equal((await svc.request({ method: 'GET', url: '/system/get-settings', headers: auth })).statusCode, 200);
    });

    test('a revoked key is refused', async () => {
      const revoked = runCli(['keys', 'revoke', keys.read.prefix], env);
      assert.equal(revoked.status, 0, revoked.stderr);
      const res = await svc.request({ method: 'GET', url: '/asr/params', headers: { authorization: `Bearer ${keys.read.key}` } });
      assert.equal(res.statusCode, 401);
      assert.equal(runCli(['keys', 'revoke', keys.read.id], env).status, 1, 'revoking twice says no active key');
    });
  });
}
