// Uploads cut short by a crash (left in the data directory's tmp folder) are deleted when the service starts, and
// those a running service's requests leave are deleted while it runs (SCRUBLINE_ORPHAN_SWEEP_MS), not only at the
// next restart; a file still being written (touched recently: another process may be receiving it) is left alone.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { startTestService, testDatabase } from '../helpers/harness.js';
import { until } from '../helpers/poll.js';
import { sweepOrphanUploads } from '../../src/jobs/orphanUploads.js';
import { stagingDir, sweepDeadStaging } from '../../src/jobs/stagingDir.js';

test('orphan uploads are swept at start, uploads in progress are not', async () => {
  const database = await testDatabase('sqlite');
  const tmp = path.join(database.dataDir, 'tmp');
  fs.mkdirSync(path.join(tmp, 'unzipped-batch'), { recursive: true });
  const hoursAgo = new Date(Date.now() - 2 * 3600_000);
  const crashed = path.join(tmp, 'crashed.upload');
  const batch = path.join(tmp, 'unzipped-batch');
  const live = path.join(tmp, 'receiving.upload');
  fs.writeFileSync(crashed, 'RIFF half a recording');
  fs.writeFileSync(path.join(batch, 'a.wav'), 'RIFF');
  fs.writeFileSync(live, 'RIFF being written');
  for (const entry of [path.join(batch, 'a.wav'), batch, crashed]) fs.utimesSync(entry, hoursAgo, hoursAgo);
  const lines: string[] = [];
  const svc = await startTestService('sqlite', { database, logLines: lines });
  try {
    assert.ok(!fs.existsSync(crashed), 'a crashed upload is deleted');
    assert.ok(!fs.existsSync(batch), 'a crashed unzip is deleted');
    assert.ok(fs.existsSync(live), 'an upload in progress stays');
    assert.match(lines.join(''), /"removed":2,/);
  } finally {
    await svc.close();
    await database.drop();
  }
  assert.equal(await sweepOrphanUploads(path.join(database.dataDir, 'never-made')), 0, 'no temp dir: nothing to do');
});

test('a running service sweeps the uploads its requests left, without a restart', async () => {
  const database = await testDatabase('sqlite');
  const lines: string[] = [];
  const svc = await startTestService('sqlite', { database, logLines: lines, env: { SCRUBLINE_ORPHAN_SWEEP_MS: '100' } });
  try {
    const tmp = path.join(database.dataDir, 'tmp');
    fs.mkdirSync(tmp, { recursive: true });
    // Left by a request of this run (its client went away), untouched since.
    const left = path.join(tmp, 'abandoned.upload');
    const live = path.join(tmp, 'receiving.upload');
    fs.writeFileSync(left, 'RIFF half a recording');
    fs.writeFileSync(live, 'RIFF being written');
    const hoursAgo = new Date(Date.now() - 2 * 3600_000);
    fs.utimesSync(left, hoursAgo, hoursAgo);
    await until(async () => !fs.existsSync(left), 'the abandoned upload is swept');
    assert.ok(fs.existsSync(live), 'an upload in progress stays');
    // The sweep logs once its pass is over, after the file is gone: wait for the line, not only for the file.
    await until(async () => /"removed":1,"msg":"deleted uploads left in the temp dir/.test(lines.join('')), 'the sweep is logged');
  } finally {
    await svc.close();
    await database.drop();
  }
});

test('staged files of a process that is gone are swept at start; a live process keeps its own', async () => {
  const database = await testDatabase('sqlite');
  const root = path.join(database.dataDir, 'staging');
  // A pid no process has now (the highest free one below the kernel's limit).
  let dead = 4_194_000;
  while (dead > 1 && (() => { try { process.kill(dead, 0); return true; } catch (e) { return (e as NodeJS.ErrnoException).code === 'EPERM'; } })()) dead--;
  const gone = path.join(stagingDir(database.dataDir, dead), 'recording-unredacted.wav');
  const mine = path.join(stagingDir(database.dataDir), 'in-use.wav');
  const other = path.join(stagingDir(database.dataDir, 1), 'pid-1.wav'); // init: alive
  const looseOld = path.join(root, 'left-by-an-older-build.wav');
  const looseNew = path.join(root, 'written-just-now.wav');
  // The data directory shared with another machine: its live run's folder (same pid as the dead one here, which
  // means nothing on that host) stays; a folder of a host long gone goes once nothing in it changed for hours.
  const remoteLive = path.join(stagingDir(database.dataDir, dead, 'other-box'), 'being-checked.wav');
  const remoteOld = path.join(stagingDir(database.dataDir, dead, 'gone-box'), 'recording-unredacted.wav');
  // An older build named folders by pid alone.
  const legacyOld = path.join(root, String(dead), 'recording-unredacted.wav');
  for (const file of [gone, mine, other, looseOld, looseNew, remoteLive, remoteOld, legacyOld]) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, 'RIFF');
  }
  const dayAgo = new Date(Date.now() - 24 * 3600_000);
  for (const entry of [looseOld, remoteOld, path.dirname(remoteOld), legacyOld, path.dirname(legacyOld)]) fs.utimesSync(entry, dayAgo, dayAgo);
  // An old folder holding one file changed just now is in use.
  fs.utimesSync(path.dirname(remoteLive), dayAgo, dayAgo);
  const lines: string[] = [];
  const svc = await startTestService('sqlite', { database, logLines: lines });
  try {
    assert.ok(!fs.existsSync(path.dirname(gone)), "a dead process's staged recording is deleted");
    assert.ok(path.basename(path.dirname(mine)).endsWith(`-${process.pid}`), 'folders are named <host>-<pid>');
    for (const old of [looseOld, path.dirname(remoteOld), path.dirname(legacyOld)]) {
      assert.ok(!fs.existsSync(old), `${path.relative(root, old)}, untouched for a day, is deleted`);
    }
    for (const kept of [mine, other, looseNew, remoteLive]) assert.ok(fs.existsSync(kept), `${path.relative(root, kept)} stays`);
    assert.match(lines.join(''), /"removed":4,"msg":"deleted the staged files/);
  } finally {
    await svc.close();
    await database.drop();
  }
  assert.equal(sweepDeadStaging(path.join(database.dataDir, 'never-made')), 0, 'no staging folder: nothing to do');
});
