// The server process: listens on loopback only while no API key exists, on the requested address after.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runCli, startServerProcess } from './helpers/cli.js';
import { testDatabase, type TestDatabase } from './helpers/harness.js';
import { until } from './helpers/poll.js';

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

describe('telephone-band model build at start', () => {
  let db: TestDatabase;
  let models: string;
  before(async () => {
    db = await testDatabase('sqlite');
    models = fs.mkdtempSync(path.join(os.tmpdir(), 'scrubline-models-'));
  });
  after(async () => {
    await db.drop();
    fs.rmSync(models, { recursive: true, force: true });
  });

  test('runs in the background; when it cannot build, the service serves on and says why', async () => {
    const server = await startServerProcess({
      ...db.env,
      SCRUBLINE_BUILD_MODELS_AT_START: '1',
      SCRUBLINE_MODELS_DIR: models,
      SCRUBLINE_SPHINXTRAIN_BIN: '/nonexistent/sphinxtrain',
    });
    try {
      await until(() => /telephone-band model (checked|build failed)/.test(server.output()), 'the start-up model check');
      const status = (await (await fetch(`${server.url}/asr/status`)).json()) as { engine: { adaptation?: { state: string; reason?: string } } };
      assert.notEqual(status.engine.adaptation?.state, 'built');
      assert.ok(status.engine.adaptation?.reason, 'the reason is shown');
      assert.equal((await fetch(`${server.url}/health`)).status, 200);
    } finally {
      await server.stop();
    }
  });
});
