// `scrubline models add | list | remove | pull`, run as the real command (a child process through tsx) against a
// models folder in a temp dir; pull fetches a real .tar.bz2 of the generated ONNX model from a local HTTP
// server (checksum good, checksum bad, server down) — nothing here reaches the internet.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { tempDir } from '../helpers/audio.js';
import { freePort, runCli, runCliAsync } from '../helpers/cli.js';
import { writeTinyNemoCtcModel } from '../helpers/tinyOnnxModel.js';

describe('scrubline models', () => {
  let dir: string;
  let env: Record<string, string>;
  let server: http.Server;
  let base: string;
  let archiveSha: string;
  const models = () => path.join(dir, 'data', 'models');

  before(async () => {
    dir = tempDir('scrubline-models-cli-');
    env = { SCRUBLINE_DATA_DIR: path.join(dir, 'data'), SCRUBLINE_MODELS_DIR: '', SCRUBLINE_MODEL_MIRROR: '' };
    writeTinyNemoCtcModel(path.join(dir, 'pack', 'sherpa-onnx-tiny-ctc'));
    execFileSync('tar', ['-cjf', path.join(dir, 'sherpa-onnx-tiny-ctc.tar.bz2'), '-C', path.join(dir, 'pack'), 'sherpa-onnx-tiny-ctc']);
    const archive = fs.readFileSync(path.join(dir, 'sherpa-onnx-tiny-ctc.tar.bz2'));
    archiveSha = createHash('sha256').update(archive).digest('hex');
    server = http.createServer((req, res) => {
      if (req.url?.startsWith('/private/')) {
        // A mirror behind basic auth: user "ops", password "s3cret-pass".
        if (req.headers.authorization !== `Basic ${Buffer.from('ops:s3cret-pass').toString('base64')}`) return void res.writeHead(401).end();
        if (req.url !== '/private/sherpa-onnx-tiny-ctc.tar.bz2') return void res.writeHead(404).end();
        res.writeHead(200, { 'content-length': archive.length });
        return void res.end(archive);
      }
      if (req.url === '/mirror/sherpa-onnx-tiny-ctc.tar.bz2') {
        res.writeHead(200, { 'content-length': archive.length });
        res.end(archive);
      } else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mirror`;
  });
  after(async () => {
    await new Promise((resolve) => server.close(resolve));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('add registers a checked folder; list shows it; a broken folder is refused by name', () => {
    const added = runCli(['models', 'add', writeTinyNemoCtcModel(path.join(dir, 'mine')), '--name', 'en-us:mine'], env);
    assert.equal(added.status, 0, added.stderr);
    assert.match(added.stdout, /Added en-us:mine: nemo-ctc model/);
    assert.ok(fs.existsSync(path.join(models(), 'en-us', 'mine', 'scrubline-model.json')));

    const list = runCli(['models', 'list', '--json'], env);
    assert.equal(list.status, 0, list.stderr);
    const mine = (JSON.parse(list.stdout) as { name: string; engine: string; installed: boolean }[]).find((m) => m.name === 'en-us:mine');
    assert.deepEqual({ engine: mine?.engine, installed: mine?.installed }, { engine: 'sherpa-onnx', installed: true });
    assert.match(runCli(['models', 'list'], env).stdout, /en-us:mine\s+sherpa-onnx\s+nemo-ctc/);

    const broken = writeTinyNemoCtcModel(path.join(dir, 'broken'), { noBlank: true });
    const refused = runCli(['models', 'add', broken, '--name', 'en-us:broken'], env);
    assert.equal(refused.status, 1);
    assert.match(refused.stderr, /error: .*broken is not a usable sherpa-onnx model folder: tokens\.txt has no blank symbol/);
    assert.equal(fs.existsSync(path.join(models(), 'en-us', 'broken')), false);

    const again = runCli(['models', 'add', path.join(dir, 'mine'), '--name', 'en-us:mine'], env);
    assert.equal(again.status, 1);
    assert.match(again.stderr, /already registered/);
    assert.match(runCli(['models', 'add', path.join(dir, 'mine'), '--name', 'mine'], env).stderr, /use language:name/);
  });

  test('remove unregisters and deletes the copy; removing twice says so', () => {
    const removed = runCli(['models', 'remove', 'en-us:mine'], env);
    assert.equal(removed.status, 0, removed.stderr);
    assert.equal(fs.existsSync(path.join(models(), 'en-us', 'mine')), false);
    assert.ok(fs.existsSync(path.join(dir, 'mine', 'model.onnx')), 'the source folder is untouched');
    const twice = runCli(['models', 'remove', 'en-us:mine'], env);
    assert.equal(twice.status, 1);
    assert.match(twice.stderr, /no added model is named en-us:mine/);
  });

  test('pull with the right checksum downloads, verifies, unpacks and registers, with progress', async () => {
    const pulled = await runCliAsync(['models', 'pull', `${base}/sherpa-onnx-tiny-ctc.tar.bz2`, '--sha256', archiveSha, '--name', 'en-us:pulled'], env);
    assert.equal(pulled.status, 0, pulled.stderr);
    assert.match(pulled.stderr, /100%/, 'progress reaches 100%');
    assert.match(pulled.stderr, new RegExp(`sha256 ${archiveSha} \\(verified\\)`));
    const manifest = JSON.parse(fs.readFileSync(path.join(models(), 'en-us', 'pulled', 'scrubline-model.json'), 'utf8'));
    assert.deepEqual(manifest.source, { kind: 'pulled', from: `${base}/sherpa-onnx-tiny-ctc.tar.bz2`, sha256: archiveSha, verified: true });
    assert.ok(fs.existsSync(path.join(models(), 'en-us', 'pulled', 'model.onnx')));
    assert.deepEqual(fs.readdirSync(path.join(models(), '.downloads')), [], 'the download was moved in, nothing left behind');
  });

  test('pull with a wrong checksum is refused and registers nothing', async () => {
    const bad = await runCliAsync(['models', 'pull', `${base}/sherpa-onnx-tiny-ctc.tar.bz2`, '--sha256', '0'.repeat(64), '--name', 'en-us:bad'], env);
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, new RegExp(`error: .*has sha256 ${archiveSha}, expected ${'0'.repeat(64)}`));
    assert.equal(fs.existsSync(path.join(models(), 'en-us', 'bad')), false);
  });

  test('pull from a server that is down fails at once with a clear error naming the mirror option', async () => {
    const port = await freePort();
    const down = runCli(['models', 'pull', 'en-us:whisper-tiny', '--mirror', `http://127.0.0.1:${port}/models`], env);
    assert.equal(down.status, 1);
    assert.match(down.stderr, /error: could not reach 127\.0\.0\.1/i);
    assert.match(down.stderr, /--mirror|SCRUBLINE_MODEL_MIRROR/);
  });

  test('an archive without a pinned checksum needs an explicit choice', async () => {
    const unpinned = await runCliAsync(['models', 'pull', `${base}/sherpa-onnx-tiny-ctc.tar.bz2`, '--name', 'en-us:unpinned'], env);
    assert.equal(unpinned.status, 2);
    assert.match(unpinned.stderr, /no checksum is pinned.*--sha256.*--accept-unpinned/);
    const accepted = await runCliAsync(['models', 'pull', `${base}/sherpa-onnx-tiny-ctc.tar.bz2`, '--name', 'en-us:unpinned', '--accept-unpinned', '--json'], env);
    assert.equal(accepted.status, 0, accepted.stderr);
    assert.equal(JSON.parse(accepted.stdout).source.verified, false);
  });

  test('a mirror URL with credentials works, and the password is neither printed nor recorded', async () => {
    const privateBase = base.replace('http://', 'http://ops:s3cret-pass@').replace('/mirror', '/private');
    const pulled = await runCliAsync(['models', 'pull', `${privateBase}/sherpa-onnx-tiny-ctc.tar.bz2`, '--sha256', archiveSha, '--name', 'en-us:private'], env);
    assert.equal(pulled.status, 0, pulled.stderr);
    const missing = await runCliAsync(['models', 'pull', `${privateBase}/nothing-here.tar.bz2`, '--accept-unpinned'], env);
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /HTTP 404/);
    const manifest = fs.readFileSync(path.join(models(), 'en-us', 'private', 'scrubline-model.json'), 'utf8');
    const record = fs.readFileSync(path.join(models(), 'en-us', 'private', 'scrubline-pull.json'), 'utf8');
    for (const [where, text] of [['output', pulled.stdout + pulled.stderr], ['error', missing.stderr], ['manifest', manifest], ['pull record', record]]) {
      assert.ok(!text.includes('s3cret-pass'), `the password is in the ${where}`);
    }
    assert.match(manifest, /"from": "http:\/\/127\.0\.0\.1:\d+\/private\/sherpa-onnx-tiny-ctc\.tar\.bz2"/);
  });

  test('the catalogue lists well-known models with sizes and licences', () => {
    const out = runCli(['models', 'list', '--catalogue'], env);
    assert.equal(out.status, 0, out.stderr);
    assert.match(out.stdout, /en-us:whisper-tiny\s+whisper/);
    assert.match(out.stdout, /MIT/);
  });
});
