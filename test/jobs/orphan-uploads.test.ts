// Uploads cut short by a crash (left in the data directory's tmp folder) are deleted when the service starts;
// a file still being written (touched recently: another process may be receiving it) is left alone.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { startTestService, testDatabase } from '../helpers/harness.js';
import { sweepOrphanUploads } from '../../src/jobs/orphanUploads.js';

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
  assert.equal(sweepOrphanUploads(path.join(database.dataDir, 'never-made')), 0, 'no temp dir: nothing to do');
});
