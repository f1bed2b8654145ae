// The server process: listens on loopback only while no API key exists, on the requested address after.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { runCli, startServerProcess } from './helpers/cli.js';
import { testDatabase, type TestDatabase } from './helpers/harness.js';

describe('server process', () => {
  let db: TestDatabase;
  before(async () => {
    db = await testDatabase('sqlite');
  });
  after(() => db.drop());

  test('with no key, HOST=0.0.0.0 is narrowed to loopback and the log says why', async () => {
    const server = await startServerProcess({ ...db.env, HOST: '0.0.0.0' });
    try {
      assert.match(server.output(), /no API key exists: listening on 127\.0\.0\.1 only/);
      assert.match(server.output(), /"host":"127\.0\.0\.1"/);
    } finally {
      assert.equal(await server.stop(), 0);
    }
  });

  test('with a key, it listens where asked', async () => {
    assert.equal(runCli(['keys', 'create', '--scope', 'admin'], db.env).status, 0);
    const server = await startServerProcess({ ...db.env, HOST: '0.0.0.0' });
    try {
      assert.match(server.output(), /"host":"0\.0\.0\.0"/);
      assert.equal((await fetch(`${server.url}/asr/status`)).status, 401);
    } finally {
      await server.stop();
    }
  });

  test('a bad setting stops the start with a clear message', () => {
    const result = runCli(['serve'], { ...db.env, PORT: 'eighty' });
    assert.equal(result.status, 2);
    assert.match(result.stderr, /PORT must be a non-negative integer, got "eighty"/);
  });
});
