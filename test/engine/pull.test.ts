// Model pulls (src/engine/pull.ts) against a local HTTP server on 127.0.0.1 serving a real .tar.bz2 built
// with the system tar: nothing here reaches the internet.
//   - a good checksum unpacks the archive's folder, reports progress up to the total, records the digest;
//   - a bad checksum, a 404, a refused connection, a stall, a cut-off body, a non-archive: typed PullErrors,
//     and nothing left behind in the destination;
//   - redirects are followed (GitHub's release downloads need it), a redirect loop is not;
//   - catalogue names resolve to upstream or to a mirror (option, then $SCRUBLINE_MODEL_MIRROR).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CATALOGUE, findCatalogueEntry } from '../../src/engine/catalogue.js';
import { MIRROR_ENV, mirrorUrl, PULL_RECORD_FILE, PullError, pullArchive, resolvePullSource, UnknownModelError } from '../../src/engine/pull.js';

const MODEL = 'sherpa-onnx-fake-model';
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'scrubline-pull-'));
const files: Record<string, Buffer> = {
  'tokens.txt': Buffer.from('<blk> 0\nhello 1\nworld 2\n'),
  // Incompressible, so the archive spans many socket reads and progress is reported more than once.
  'model.int8.onnx': randomBytes(300_000),
  'test_wavs/trans.txt': Buffer.from('hello world\n'),
};

function buildArchive(name: string, folder: string | undefined): Buffer {
  const src = fs.mkdtempSync(path.join(work, 'src-'));
  const root = folder ? path.join(src, folder) : src;
  for (const [rel, data] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), data);
  }
  const out = path.join(work, name);
  execFileSync('tar', ['-cjf', out, '-C', src, ...(folder ? [folder] : Object.keys(files).map((f) => f.split('/')[0]))]);
  return fs.readFileSync(out);
}

const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const archive = buildArchive(`${MODEL}.tar.bz2`, MODEL);
const flat = buildArchive('flat-model.tar.bz2', undefined);
const archiveSha = sha(archive);
const hits = new Map<string, number>();
const TRICKLE_SLICES = 40;
const TRICKLE_GAP_MS = 50;

/** Sends the body in small slices so the client sees several chunks (`gapMs` apart, else back to back). */
function sendSlowly(res: http.ServerResponse, body: Buffer, upTo = body.length, hangAfter = false, gapMs = 0, sliceBytes = 16_384) {
  res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(body.length) });
  let at = 0;
  const next = () => {
    if (at >= upTo) {
      if (hangAfter) return; // keep the socket open, send nothing more
      if (upTo < body.length) return void res.socket?.destroy(); // cut the connection mid-body
      return void res.end();
    }
    const end = Math.min(at + sliceBytes, upTo);
    res.write(body.subarray(at, end));
    at = end;
    if (gapMs > 0) setTimeout(next, gapMs);
    else setImmediate(next);
  };
  next();
}

const server = http.createServer((req, res) => {
  const url = req.url ?? '/';
  hits.set(url, (hits.get(url) ?? 0) + 1);
  if (url === `/models/${MODEL}.tar.bz2`) return sendSlowly(res, archive);
  if (url === '/models/flat-model.tar.bz2') return sendSlowly(res, flat);
  if (url === '/models/not-an-archive.tar.bz2') return sendSlowly(res, Buffer.from('this is not a tarball\n'));
  // A mirror serving different bytes under a catalogue archive's name.
  if (url === '/mirror/sherpa-onnx-moonshine-tiny-en-int8.tar.bz2') return sendSlowly(res, archive);
  if (url === '/redirect/1') return res.writeHead(302, { location: '/redirect/2' }).end();
  if (url === '/redirect/2') return res.writeHead(301, { location: `/models/${MODEL}.tar.bz2` }).end();
  if (url === '/loop') return res.writeHead(302, { location: '/loop' }).end();
  if (url === '/stall/body') return sendSlowly(res, archive, 32_768, true);
  if (url === '/stall/headers') return; // accept, never answer
  // 40 slices 50 ms apart: by construction the whole download lasts 2 s or more (timers never fire early).
  if (url === '/trickle') return sendSlowly(res, archive, archive.length, false, TRICKLE_GAP_MS, Math.ceil(archive.length / TRICKLE_SLICES));
  if (url === '/cut/body') return sendSlowly(res, archive, 32_768);
  res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
});

let base = '';
let deadPort = 0;

before(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // A port that was just free: nothing listens on it, so connecting is refused.
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  deadPort = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
});

after(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  fs.rmSync(work, { recursive: true, force: true });
});

function freshDest(): string {
  return fs.mkdtempSync(path.join(work, 'dest-'));
}

async function pullError(promise: Promise<unknown>): Promise<PullError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof PullError, `expected a PullError, got ${String(error)}`);
    return error;
  }
  assert.fail('the pull succeeded');
}

describe('pullArchive', () => {
  test('a good checksum unpacks the model folder and reports progress up to the total', async () => {
    const dest = freshDest();
    const progress: Array<[number, number | undefined]> = [];
    const result = await pullArchive({
      url: `${base}/models/${MODEL}.tar.bz2`,
      destDir: dest,
      sha256: archiveSha.toUpperCase(), // digests compare case-insensitively
      onProgress: (received, total) => progress.push([received, total]),
    });
    assert.equal(result.dir, path.join(dest, MODEL));
    assert.equal(result.sha256, archiveSha);
    assert.equal(result.bytes, archive.length);
    assert.equal(result.verified, true);
    for (const [rel, data] of Object.entries(files)) {
      assert.deepEqual(fs.readFileSync(path.join(result.dir, rel)), data, rel);
    }
    const record = JSON.parse(fs.readFileSync(path.join(result.dir, PULL_RECORD_FILE), 'utf8'));
    assert.equal(record.sha256, archiveSha);
    assert.equal(record.verified, true);
    // Only the model folder is left: no temp file, no staging folder.
    assert.deepEqual(fs.readdirSync(dest), [MODEL]);

    assert.ok(progress.length > 1, `progress was reported ${progress.length} time(s)`);
    for (let i = 1; i < progress.length; i++) assert.ok(progress[i][0] > progress[i - 1][0], 'byte counts increase');
    assert.ok(progress.every(([, total]) => total === archive.length), 'total is the Content-Length');
    assert.deepEqual(progress.at(-1), [archive.length, archive.length]);
  });

  test('without a pinned checksum the pull trusts on first use and reports the digest', async () => {
    const dest = freshDest();
    const result = await pullArchive({ url: `${base}/models/${MODEL}.tar.bz2`, destDir: dest });
    assert.equal(result.verified, false);
    assert.equal(result.sha256, archiveSha);
    assert.equal(JSON.parse(fs.readFileSync(path.join(result.dir, PULL_RECORD_FILE), 'utf8')).verified, false);
  });

  test('an archive without a single top-level folder unpacks into a folder named after the archive', async () => {
    const dest = freshDest();
    const result = await pullArchive({ url: `${base}/models/flat-model.tar.bz2`, destDir: dest, sha256: sha(flat) });
    assert.equal(result.dir, path.join(dest, 'flat-model'));
    assert.deepEqual(fs.readFileSync(path.join(result.dir, 'tokens.txt')), files['tokens.txt']);
    assert.deepEqual(fs.readdirSync(dest), ['flat-model']);
  });

  test('a bad checksum is refused naming both digests, and nothing is left behind', async () => {
    const dest = freshDest();
    const wrong = 'ab'.repeat(32);
    const error = await pullError(pullArchive({ url: `${base}/models/${MODEL}.tar.bz2`, destDir: dest, sha256: wrong }));
    assert.equal(error.code, 'checksum');
    assert.match(error.message, new RegExp(archiveSha));
    assert.match(error.message, new RegExp(wrong));
    assert.deepEqual(fs.readdirSync(dest), []);
  });

  test('a connection refused is a network error, quickly, suggesting a mirror', async () => {
    const dest = freshDest();
    // Idle timer far longer than any test: a 'network' error (not 'timeout') shows the refusal itself ended it.
    const error = await pullError(pullArchive({ url: `http://127.0.0.1:${deadPort}/x.tar.bz2`, destDir: dest, idleTimeoutMs: 600_000 }));
    assert.equal(error.code, 'network', 'failed on the refusal, not by the idle timer');
    assert.match(error.message, /Could not reach 127\.0\.0\.1/);
    assert.match(error.message, /--mirror/);
    assert.match(error.message, new RegExp(MIRROR_ENV));
    assert.deepEqual(fs.readdirSync(dest), []);
  });

  test('an unresolvable host is a network error', async () => {
    const error = await pullError(pullArchive({ url: 'http://scrubline-no-such-host.invalid/x.tar.bz2', destDir: freshDest(), idleTimeoutMs: 5_000 }));
    assert.ok(error.code === 'network' || error.code === 'timeout', error.code);
  });

  test('HTTP 404 is an http error with the status and URL', async () => {
    const dest = freshDest();
    const error = await pullError(pullArchive({ url: `${base}/models/missing.tar.bz2`, destDir: dest }));
    assert.equal(error.code, 'http');
    assert.equal(error.details.status, 404);
    assert.match(error.message, /404/);
    assert.match(error.message, /\/models\/missing\.tar\.bz2/);
    assert.deepEqual(fs.readdirSync(dest), []);
  });

  test('redirects are followed to the archive', async () => {
    const dest = freshDest();
    const before = hits.get(`/models/${MODEL}.tar.bz2`) ?? 0;
    const result = await pullArchive({ url: `${base}/redirect/1`, destDir: dest, sha256: archiveSha, folderName: MODEL });
    assert.equal(result.dir, path.join(dest, MODEL));
    assert.equal(hits.get(`/models/${MODEL}.tar.bz2`), before + 1);
    assert.deepEqual(fs.readFileSync(path.join(result.dir, 'tokens.txt')), files['tokens.txt']);
  });

  test('a redirect loop stops after the redirect limit', async () => {
    const before = hits.get('/loop') ?? 0;
    const error = await pullError(pullArchive({ url: `${base}/loop`, destDir: freshDest(), folderName: 'x' }));
    assert.equal(error.code, 'http');
    assert.match(error.message, /redirects/);
    assert.equal((hits.get('/loop') ?? 0) - before, 6, 'the first request and 5 redirects');
  });

  test('a server that stalls mid-body times out and leaves nothing behind', async () => {
    const dest = freshDest();
    const error = await pullError(pullArchive({ url: `${base}/stall/body`, destDir: dest, idleTimeoutMs: 300, folderName: 'm' }));
    assert.equal(error.code, 'timeout');
    assert.match(error.message, /300 ms after 32768 bytes/);
    assert.deepEqual(fs.readdirSync(dest), []);
  });

  test('the timeout is for idleness, not for the whole download', async () => {
    // 40 slices 50 ms apart take 2 s or more in all (by construction, not measured here): twice the idle timeout,
    // while no gap comes near it (20 times the gap, room for a busy machine).
    const idleTimeoutMs = 1000;
    assert.ok(TRICKLE_SLICES * TRICKLE_GAP_MS >= 2 * idleTimeoutMs && TRICKLE_GAP_MS * 20 <= idleTimeoutMs);
    const result = await pullArchive({ url: `${base}/trickle`, destDir: freshDest(), idleTimeoutMs, sha256: archiveSha, folderName: MODEL });
    assert.equal(result.bytes, archive.length);
  });

  test('a server that accepts and never answers times out', async () => {
    const error = await pullError(pullArchive({ url: `${base}/stall/headers`, destDir: freshDest(), idleTimeoutMs: 300, folderName: 'm' }));
    assert.equal(error.code, 'timeout');
  });

  test('a connection cut mid-body is a network error and the partial file is removed', async () => {
    const dest = freshDest();
    const error = await pullError(pullArchive({ url: `${base}/cut/body`, destDir: dest, folderName: 'm' }));
    assert.equal(error.code, 'network');
    assert.deepEqual(fs.readdirSync(dest), []);
  });

  test('a file that is not an archive is an unpack error and leaves nothing behind', async () => {
    const dest = freshDest();
    const error = await pullError(pullArchive({ url: `${base}/models/not-an-archive.tar.bz2`, destDir: dest }));
    assert.equal(error.code, 'unpack');
    assert.deepEqual(fs.readdirSync(dest), []);
  });

  test('an existing model folder is never overwritten, and nothing is downloaded', async () => {
    const dest = freshDest();
    fs.mkdirSync(path.join(dest, MODEL));
    fs.writeFileSync(path.join(dest, MODEL, 'keep.txt'), 'mine');
    const before = hits.get(`/models/${MODEL}.tar.bz2`) ?? 0;
    const error = await pullError(pullArchive({ url: `${base}/models/${MODEL}.tar.bz2`, destDir: dest, sha256: archiveSha }));
    assert.equal(error.code, 'exists');
    assert.equal(hits.get(`/models/${MODEL}.tar.bz2`) ?? 0, before);
    assert.deepEqual(fs.readdirSync(path.join(dest, MODEL)), ['keep.txt']);
  });

  test('a mirror serving other bytes under a pinned catalogue name is refused', async () => {
    const dest = freshDest();
    const source = resolvePullSource('en-us:moonshine-tiny', { mirror: `${base}/mirror/`, env: {} });
    assert.equal(source.url, `${base}/mirror/sherpa-onnx-moonshine-tiny-en-int8.tar.bz2`);
    assert.ok(source.sha256);
    const error = await pullError(pullArchive({ url: source.url, destDir: dest, sha256: source.sha256 }));
    assert.equal(error.code, 'checksum');
    assert.deepEqual(fs.readdirSync(dest), []);
  });
});

describe('mirrors and names', () => {
  const entry = findCatalogueEntry('en-us:whisper-tiny')!;

  test('mirrorUrl joins the mirror and the archive name whatever the trailing slashes', () => {
    for (const mirror of ['http://mirror.local/models', 'http://mirror.local/models/', 'http://mirror.local/models///']) {
      assert.equal(mirrorUrl(entry, mirror), 'http://mirror.local/models/sherpa-onnx-whisper-tiny.en.tar.bz2');
    }
  });

  test('a catalogue name resolves to upstream without a mirror', () => {
    const source = resolvePullSource('en-us:whisper-tiny', { env: {} });
    assert.equal(source.from, 'catalogue');
    assert.equal(source.url, 'https://github.com/k2-fsa/sherpa-onnx/releases/download/asr-models/sherpa-onnx-whisper-tiny.en.tar.bz2');
    assert.equal(source.sha256, entry.sha256);
    assert.equal(source.entry, entry);
  });

  test('the mirror comes from the option, else from SCRUBLINE_MODEL_MIRROR; the option wins', () => {
    const fromEnv = resolvePullSource('en-us:whisper-tiny', { env: { [MIRROR_ENV]: 'http://env-mirror:8080/asr/' } });
    assert.equal(fromEnv.from, 'mirror');
    assert.equal(fromEnv.url, 'http://env-mirror:8080/asr/sherpa-onnx-whisper-tiny.en.tar.bz2');
    assert.equal(fromEnv.sha256, entry.sha256, 'a mirrored archive is still checked against the pin');

    const fromOption = resolvePullSource('en-us:whisper-tiny', { mirror: 'http://opt-mirror/m', env: { [MIRROR_ENV]: 'http://env-mirror:8080/asr' } });
    assert.equal(fromOption.url, 'http://opt-mirror/m/sherpa-onnx-whisper-tiny.en.tar.bz2');

    const blankEnv = resolvePullSource('en-us:whisper-tiny', { env: { [MIRROR_ENV]: '  ' } });
    assert.equal(blankEnv.from, 'catalogue');
  });

  test('an unknown name is an error listing the catalogue', () => {
    assert.throws(
      () => resolvePullSource('en-us:no-such-model', { env: {} }),
      (error: unknown) => {
        assert.ok(error instanceof UnknownModelError);
        assert.deepEqual(error.known, CATALOGUE.map((e) => e.name));
        for (const e of CATALOGUE) assert.ok(error.message.includes(e.name), e.name);
        return true;
      },
    );
  });

  test('a URL is fetched as given, keeping the pin when its file is a catalogue archive', () => {
    const known = resolvePullSource('http://files.local/x/sherpa-onnx-whisper-tiny.en.tar.bz2', { mirror: 'http://ignored', env: {} });
    assert.equal(known.from, 'url');
    assert.equal(known.url, 'http://files.local/x/sherpa-onnx-whisper-tiny.en.tar.bz2');
    assert.equal(known.sha256, entry.sha256);
    const other = resolvePullSource('https://files.local/other.tar.gz', { env: {} });
    assert.equal(other.entry, undefined);
    assert.equal(other.sha256, undefined);
  });
});

describe('catalogue', () => {
  test('entries are well formed', () => {
    const names = new Set<string>();
    for (const e of CATALOGUE) {
      assert.match(e.name, /^[a-z]{2}-[a-z]{2}:[a-z0-9.-]+$/, e.name);
      assert.ok(!names.has(e.name), `duplicate ${e.name}`);
      names.add(e.name);
      assert.equal(e.url, `https://github.com/k2-fsa/sherpa-onnx/releases/download/asr-models/${e.archive}`);
      assert.match(e.archive, /\.tar\.bz2$/);
      assert.ok(e.sizeBytes > 1_000_000, e.name);
      if (e.sha256 !== undefined) assert.match(e.sha256, /^[0-9a-f]{64}$/, e.name);
      assert.ok(e.sha256Source.length > 0 && e.licence.length > 0 && e.description.length > 0, e.name);
    }
    assert.ok(CATALOGUE.length >= 6 && CATALOGUE.length <= 10);
  });
});
