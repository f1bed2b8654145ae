// API keys over HTTP (GET/POST /system/keys, DELETE /system/keys/:id), on both stores: the first key from loopback
// must be admin and makes keys required at once; a created key works for its scope and is refused above it; the list
// never holds a key nor its hash; a revoked key is refused on the very next request (the auth cache lives far longer
// than the test, so only invalidation can do it), here and, over Redis, in another process; read and submit keys are
// refused all three routes; bad input is a 400 problem; the last active admin key cannot be revoked, even by two
// admins revoking each other at once; and at LOG_LEVEL=trace no log line holds a created key.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { Redis } from 'ioredis';
import { hashKey } from '../../src/store/apiKeys.js';
import { dialects, json, startTestService, TEST_REDIS_URL, testDatabase, type TestDatabase, type TestService } from '../helpers/harness.js';
import { until } from '../helpers/poll.js';

/** A lookup cached far longer than the test runs: a key refused after revocation was refused by invalidation. */
const LONG_TTL = String(10 * 60_000);
const FIELDS = ['createdAt', 'id', 'lastUsedAt', 'name', 'prefix', 'revokedAt', 'scope'];

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

function assertProblem(res: LightMyRequestResponse, status: number, what: string): any {
  assert.equal(res.statusCode, status, `${what}: ${res.body}`);
  assert.match(String(res.headers['content-type']), /^application\/problem\+json/, what);
  const body = json(res);
  assert.equal(body.status, status, what);
  assert.equal(typeof body.detail, 'string', what);
  return body;
}

async function redisAvailable(): Promise<boolean> {
  const client = new Redis(TEST_REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.ping();
    return true;
  } catch {
    if (process.env.SCRUBLINE_REQUIRE_REDIS === '1') throw new Error(`Redis is required but unreachable at ${TEST_REDIS_URL}`);
    return false;
  } finally {
    client.disconnect();
  }
}
const hasRedis = await redisAvailable();

for (const dialect of await dialects()) {
  describe(`API keys over HTTP (${dialect})`, () => {
    let svc: TestService;
    const lines: string[] = [];
    /** Every key the service answered: none may reach a log line. */
    const made: string[] = [];
    let admin: string;

    before(async () => {
      svc = await startTestService(dialect, { workers: false, env: { LOG_LEVEL: 'trace', SCRUBLINE_AUTH_CACHE_MS: LONG_TTL }, logLines: lines });
    });
    after(() => svc.close());

    const list = (key?: string) => svc.request({ method: 'GET', url: '/system/keys', ...(key && { headers: bearer(key) }) });
    const create = (payload: unknown, key?: string) => svc.request({ method: 'POST', url: '/system/keys', payload: payload as object, ...(key && { headers: bearer(key) }) });
    const revoke = (id: string, key?: string) =>
      svc.request({ method: 'DELETE', url: `/system/keys/${encodeURIComponent(id)}`, ...(key && { headers: bearer(key) }) });
    const session = (key: string) => svc.request({ method: 'GET', url: '/console/session', headers: bearer(key) });
    /** A key made over HTTP by the admin key: its answer, checked. */
    const made201 = async (name: string, scope: string, by = admin) => {
      const res = await create({ name, scope }, by);
      assert.equal(res.statusCode, 201, res.body);
      const body = json(res);
      made.push(body.key);
      return body as { key: string; id: string; name: string; scope: string; prefix: string; revokedAt: string | null };
    };

    test('from loopback with no key: the first key must be admin; once made, keys are required at once', async () => {
      // The service is open to loopback (app.inject comes from 127.0.0.1) and has cached that no key exists.
      assert.deepEqual(json(await list()), { keys: [] });
      const reader = assertProblem(await create({ name: 'reader', scope: 'read' }), 409, 'a first key that is not admin');
      assert.match(reader.detail, /first API key must have the admin scope/);
      assert.deepEqual(json(await list()), { keys: [] }, 'nothing was stored');

      const res = await create({ name: 'first admin', scope: 'admin' });
      assert.equal(res.statusCode, 201, res.body);
      assert.equal(res.headers['cache-control'], 'no-store');
      const body = json(res);
      made.push(body.key);
      assert.deepEqual(Object.keys(body).sort(), ['key', ...FIELDS].sort());
      assert.match(body.key, /^slk_[A-Za-z0-9_-]{43}$/);
      assert.equal(body.prefix, body.key.slice(0, 10));
      assert.deepEqual([body.name, body.scope, body.revokedAt, body.lastUsedAt], ['first admin', 'admin', null, null]);
      admin = body.key;

      // The cached "no key exists" is forgotten: the very next call without a key is refused, even from loopback.
      assertProblem(await list(), 401, 'no key once one exists');
      assert.equal(json(await session(admin)).scope, 'admin');
    });

    test('a created key works for its scope and is refused above it', async () => {
      const read = await made201('dashboard', 'read');
      const submit = await made201('uploader', 'submit');
      assert.deepEqual(json(await session(read.key)), { scope: 'read', name: 'dashboard', open: false });
      assert.equal((await svc.request({ method: 'GET', url: '/asr/jobs', headers: bearer(read.key) })).statusCode, 200);
      assertProblem(await svc.request({ method: 'POST', url: '/asr/transcribe', payload: { text: 'hello' }, headers: bearer(read.key) }), 403, 'read key submits');

      const job = await svc.request({ method: 'POST', url: '/asr/transcribe', payload: { text: 'hello' }, headers: bearer(submit.key) });
      assert.equal(job.statusCode, 202, job.body);
      assertProblem(await svc.request({ method: 'POST', url: '/system/set-parameter', payload: { name: 'uttmaxsilence', value: 900 }, headers: bearer(submit.key) }), 403, 'submit key on an admin call');

      const second = await made201('second admin', 'admin');
      assert.equal((await list(second.key)).statusCode, 200, 'an admin key made over HTTP manages keys');
      assert.equal((await revoke(second.id, admin)).statusCode, 200);
    });

    test('the list holds every key with its fields, never a key nor its hash', async () => {
      const res = await list(admin);
      assert.equal(res.statusCode, 200, res.body);
      const { keys } = json(res);
      assert.ok(keys.length >= 4, res.body);
      for (const entry of keys) assert.deepEqual(Object.keys(entry).sort(), FIELDS);
      assert.deepEqual(
        keys.map((k: { name: string; scope: string; revokedAt: string | null }) => [k.name, k.scope, k.revokedAt === null ? 'active' : 'revoked']).sort(),
        [
          ['dashboard', 'read', 'active'],
          ['first admin', 'admin', 'active'],
          ['second admin', 'admin', 'revoked'],
          ['uploader', 'submit', 'active'],
        ],
      );
      for (const key of made) {
        assert.ok(!res.body.includes(key), 'a key is in the list');
        assert.ok(!res.body.includes(hashKey(key)), "a key's hash is in the list");
        assert.ok(!res.body.includes(key.slice(0, 16)), 'more of a key than its prefix is in the list');
      }
    });

    test('a revoked key is refused on the very next request; the events name it, never the key', async () => {
      const temp = await made201('temporary', 'read');
      assert.equal((await session(temp.key)).statusCode, 200, 'in use, so its lookup is cached');
      const res = await revoke(temp.id, admin);
      assert.equal(res.statusCode, 200, res.body);
      const body = json(res);
      assert.deepEqual(Object.keys(body).sort(), FIELDS);
      assert.equal(body.id, temp.id);
      assert.ok(!Number.isNaN(Date.parse(body.revokedAt)), 'answered with its revocation time');
      assert.ok(!res.body.includes(temp.key));

      assert.match(assertProblem(await session(temp.key), 401, 'the revoked key').detail, /unknown or revoked/);
      const listed = json(await list(admin)).keys.find((k: { id: string }) => k.id === temp.id);
      assert.equal(listed.revokedAt, body.revokedAt);
      assertProblem(await revoke(temp.id, admin), 404, 'revoked twice');

      const events = await svc.request({ method: 'GET', url: '/system/events?type=system&limit=100', headers: bearer(admin) });
      const subTypes = json(events).events.map((e: { subType: string; details?: string }) => [e.subType, JSON.parse(e.details ?? '{}').id]);
      assert.ok(subTypes.some(([t, id]: string[]) => t === 'key_created' && id === temp.id), events.body.slice(0, 500));
      assert.ok(subTypes.some(([t, id]: string[]) => t === 'key_revoked' && id === temp.id), events.body.slice(0, 500));
      for (const key of made) assert.ok(!events.body.includes(key) && !events.body.includes(hashKey(key)), 'a key in the events');
    });

    test('read and submit keys are refused all three routes, and nothing changes', async () => {
      const before = json(await list(admin)).keys;
      const target = before.find((k: { name: string }) => k.name === 'dashboard');
      const firstAdmin = before.find((k: { name: string }) => k.name === 'first admin');
      for (const scope of ['read', 'submit'] as const) {
        const { key } = await made201(`outsider ${scope}`, scope);
        assertProblem(await list(key), 403, `${scope} lists`);
        assertProblem(await create({ name: 'escalated', scope: 'admin' }, key), 403, `${scope} creates`);
        assertProblem(await revoke(target.id, key), 403, `${scope} revokes`);
        assertProblem(await revoke(firstAdmin.id, key), 403, `${scope} revokes an admin key`);
      }
      const after = json(await list(admin)).keys;
      assert.equal(after.length, before.length + 2, 'only the two outsiders were added');
      assert.ok(!after.some((k: { name: string }) => k.name === 'escalated'));
      assert.equal(after.find((k: { id: string }) => k.id === target.id).revokedAt, null);
    });

    test('bad bodies and ids are a 400 problem naming the field; an unknown id is a 404', async () => {
      const cases: [payload: unknown, pointer: string | undefined, what: string][] = [
        [{}, undefined, 'no fields'],
        [{ scope: 'read' }, undefined, 'no name'],
        [{ name: 'x' }, undefined, 'no scope'],
        [{ name: '', scope: 'read' }, '/name', 'an empty name'],
        [{ name: 'x'.repeat(101), scope: 'read' }, '/name', 'a name of 101 characters'],
        [{ name: 'bell\u0007', scope: 'read' }, '/name', 'a control character'],
        [{ name: 'two\nlines', scope: 'read' }, '/name', 'a newline'],
        [{ name: 42, scope: 'read' }, '/name', 'a number for a name'],
        [{ name: 'x', scope: 'owner' }, '/scope', 'an unknown scope'],
        [{ name: 'x', scope: 'ADMIN' }, '/scope', 'a scope in capitals'],
        [{ name: 'x', scope: 'read', key: 'slk_chosen-by-the-client' }, undefined, 'a key chosen by the client'],
        [['x', 'read'], undefined, 'an array'],
      ];
      const count = json(await list(admin)).keys.length;
      for (const [payload, pointer, what] of cases) {
        const problem = assertProblem(await create(payload, admin), 400, what);
        if (pointer) assert.ok(problem.errors?.some((e: { pointer: string }) => e.pointer === pointer), `${what}: ${JSON.stringify(problem)}`);
      }
      const raw = await svc.request({ method: 'POST', url: '/system/keys', payload: '{"name":', headers: { ...bearer(admin), 'content-type': 'application/json' } });
      assertProblem(raw, 400, 'broken JSON');
      assert.equal(json(await list(admin)).keys.length, count, 'nothing was stored');

      // Bounds hold exactly: 100 characters (any script) is a name.
      const longest = await made201('é'.repeat(100), 'read');
      assert.equal(longest.name, 'é'.repeat(100));

      assertProblem(await revoke('x'.repeat(257), admin), 400, 'an id too long');
      assertProblem(await revoke('no-such-key', admin), 404, 'an unknown id');
      assertProblem(await revoke(crypto.randomUUID(), admin), 404, 'an unknown uuid');
      assertProblem(await svc.request({ method: 'GET', url: '/system/keys?scope=admin', headers: bearer(admin) }), 400, 'a query parameter the list does not take');
    });

    test('the last active admin key cannot be revoked; with two, one admin revoking the other is fine', async () => {
      const activeAdmins = async () =>
        json(await list(admin)).keys.filter((k: { scope: string; revokedAt: string | null }) => k.scope === 'admin' && k.revokedAt === null);
      const [only] = await activeAdmins();
      assert.equal((await activeAdmins()).length, 1);
      const refused = assertProblem(await revoke(only.id, admin), 409, 'the last admin revokes itself');
      assert.match(refused.detail, /last active admin key/);
      assert.equal(json(await session(admin)).scope, 'admin', 'the key still works');

      // Another admin first; then the first may go (even by its own hand), and is refused from then on.
      const next = await made201('next admin', 'admin');
      assert.equal((await revoke(only.id, admin)).statusCode, 200);
      assertProblem(await list(admin), 401, 'the revoked admin key');
      admin = next.key;
      assertProblem(await revoke(next.id, admin), 409, 'the new last admin');

      // Two admins revoking each other at once: exactly one succeeds, one admin key is left.
      const other = await made201('rival admin', 'admin');
      // (Both keys looked up first, so each request passes its key check; the loser is refused 409, or 401 should its
      // check come after the winner's revocation.)
      assert.equal((await session(other.key)).statusCode, 200);
      assert.equal((await session(admin)).statusCode, 200);
      const [mine, theirs] = await Promise.all([revoke(other.id, admin), revoke(next.id, other.key)]);
      const statuses = [mine.statusCode, theirs.statusCode];
      assert.equal(statuses.filter((s) => s === 200).length, 1, `${mine.body} ${theirs.body}`);
      assert.ok(statuses.every((s) => s === 200 || s === 409 || s === 401), `${mine.body} ${theirs.body}`);
      const left = await svc.services.store.apiKeys.list();
      assert.equal(left.filter((k) => k.scope === 'admin' && k.revokedAt === null).length, 1);
      if (mine.statusCode !== 200) admin = other.key;
    });

    test('at trace, no log line holds a key made over HTTP, nor one pasted into a path', async () => {
      const pasted = await made201('pasted', 'read');
      // A key sent where an id belongs: refused, and the path it was in is logged without it.
      assertProblem(await revoke(pasted.key, admin), 404, 'a key for an id');
      const log = lines.join('');
      assert.equal(svc.app.log.level, 'trace', 'the service logs at its most verbose');
      assert.ok(lines.some((l) => l.includes('"url":"/system/keys"')), 'the key routes were logged');
      assert.ok(lines.some((l) => l.includes('"url":"/system/keys/slk_****"')), 'the pasted key was censored in the path');
      assert.ok(made.length >= 10);
      for (const key of made) {
        assert.ok(!log.includes(key.slice(0, 16)), `a log line holds a key (${key.slice(0, 10)}…)`);
        assert.ok(!log.includes(hashKey(key)), "a log line holds a key's hash");
      }
    });
  });

  describe(`API keys over HTTP, two processes on one store (${dialect})`, { skip: !hasRedis && `no Redis at ${TEST_REDIS_URL}` }, () => {
    let database: TestDatabase;
    let a: TestService;
    let b: TestService;
    before(async () => {
      database = await testDatabase(dialect);
      const env = { REDIS_URL: TEST_REDIS_URL, SCRUBLINE_AUTH_CACHE_MS: LONG_TTL };
      a = await startTestService(dialect, { database, env, workers: false });
      b = await startTestService(dialect, { database, env, workers: false });
    });
    after(async () => {
      await a?.close();
      await b?.close();
      await database?.drop();
    });

    test('a key revoked on one process is refused by the other, which had it cached (Redis carries the change)', async () => {
      const admin = (await a.services.store.apiKeys.create('admin', 'admin')).key;
      const made = await a.request({ method: 'POST', url: '/system/keys', payload: { name: 'shared', scope: 'read' }, headers: bearer(admin) });
      assert.equal(made.statusCode, 201, made.body);
      const { key, id } = json(made);
      const onB = () => b.request({ method: 'GET', url: '/console/session', headers: bearer(key) });
      assert.equal((await onB()).statusCode, 200, 'b has looked it up (and caches it for ten minutes)');
      assert.equal((await a.request({ method: 'DELETE', url: `/system/keys/${id}`, headers: bearer(admin) })).statusCode, 200);
      assert.equal((await a.request({ method: 'GET', url: '/console/session', headers: bearer(key) })).statusCode, 401);
      await until(async () => (await onB()).statusCode === 401, 'b to refuse the revoked key');
    });
  });
}
