// SQLite runs with secure_delete: a deleted job's values are overwritten in the file, not left in free pages.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { json, startTestService, type TestService } from '../helpers/harness.js';

describe('SQLite secure_delete', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService('sqlite');
  });
  after(() => svc.close());

  test('reads back ON', async () => {
    const { rows } = await sql<{ secure_delete: number }>`pragma secure_delete`.execute(svc.services.store.database.db);
    assert.equal(rows[0].secure_delete, 1);
  });

  test("a deleted job's values are gone from the database file", async () => {
    const marker = 'Dropped-7c1e93a5b2-marker';
    const job = json(await svc.request({ method: 'POST', url: '/asr/transcribe?wait=300', payload: { text: 'hello there', tracking_id: marker } }));
    assert.equal(job.status, 'completed');
    const db = svc.services.store.database.db;
    const file = path.join(svc.database.dataDir, 'scrubline.sqlite');
    await sql`pragma wal_checkpoint(TRUNCATE)`.execute(db);
    assert.ok(fs.readFileSync(file).includes(marker), 'the value was written to the file');
    assert.equal((await svc.request({ method: 'DELETE', url: `/asr/jobs/${job.jobId}` })).statusCode, 204);
    await sql`pragma wal_checkpoint(TRUNCATE)`.execute(db);
    for (const name of fs.readdirSync(svc.database.dataDir).filter((n) => n.startsWith('scrubline.sqlite'))) {
      assert.ok(!fs.readFileSync(path.join(svc.database.dataDir, name)).includes(marker), `${name} still holds the deleted value`);
    }
  });
});
