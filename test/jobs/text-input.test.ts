// A text job's input never goes into the jobs row: it waits in the job's folder, is removed once redacted
// or when the job fails, and a failed job keeps no trace of it anywhere in the store. On SQLite and PostgreSQL.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { dialects, json, startTestService, type TestService } from '../helpers/harness.js';
import { blobExists, blobKeys, readBlob } from '../helpers/blobs.js';

const SECRET = 'my ssn is 123-45-6789 and my name is Zebulon Quartermaine';

for (const dialect of await dialects()) {
  describe(`text input (${dialect})`, () => {
    let svc: TestService;
    before(async () => {
      svc = await startTestService(dialect);
    });
    after(() => svc.close());

    /** The input's key in the service's blob store (the data dir, or a bucket with SCRUBLINE_BLOB_STORE=s3). */
    const inputFile = (jobId: string) => `uploads/${jobId}/input.txt`;
    /** Every row the store holds about a job, as text. */
    async function stored(jobId: string): Promise<string> {
      const db = svc.services.store.database.db;
      const rows = await Promise.all([
        db.selectFrom('jobs').selectAll().where('id', '=', jobId).execute(),
        db.selectFrom('events').selectAll().where('subject', '=', jobId).execute(),
        db.selectFrom('deliveries').selectAll().where('job_id', '=', jobId).execute(),
      ]);
      return JSON.stringify(rows);
    }
    const submit = (payload: object, query = '') => svc.request({ method: 'POST', url: `/asr/transcribe${query}`, payload });

    test('a failed text job keeps no input text, in its row or on disk', async () => {
      await svc.services.worker.stop();
      let jobId: string;
      try {
        const queued = await submit({ text: SECRET });
        assert.equal(queued.statusCode, 202, queued.body);
        jobId = json(queued).jobId;
        assert.ok(!(await stored(jobId)).includes('Zebulon'), 'the queued row does not hold the text');
        assert.equal((await readBlob(svc, inputFile(jobId)))?.toString('utf8'), SECRET, "the text waits in the job's folder");
        // As if every earlier attempt had died with its process: the worker fails the job for good.
        await svc.services.store.jobs.update(jobId, { attempts: 5 });
      } finally {
        await svc.services.worker.start();
      }
      const failed = json(await svc.request({ method: 'GET', url: `/asr/jobs/${jobId}?wait=300` }));
      assert.equal(failed.status, 'failed');
      assert.ok(!(await blobExists(svc, inputFile(jobId))), 'the input file is removed');
      const rows = await stored(jobId);
      for (const value of ['Zebulon', '123-45-6789']) assert.ok(!rows.includes(value), `the store holds ${value}: ${rows}`);
      // Run again, it needs the text again.
      assert.equal((await submit({ jobId })).statusCode, 409);
      const again = await submit({ jobId, text: 'hello again', wait: 20 });
      assert.equal(json(again).status, 'completed', again.body);
    });

    test('a redacted text job: the input file is gone once redacted; resubmitting needs the text again', async () => {
      const job = json(await submit({ text: SECRET, types: ['Person', 'USSocialSecurityNumber'] }, '?wait=300'));
      assert.equal(job.status, 'completed');
      assert.equal(job.redactionStatus, 'completed');
      assert.ok(!(await blobExists(svc, inputFile(job.jobId))));
      const rows = await stored(job.jobId);
      for (const value of ['Zebulon', '123-45-6789']) assert.ok(!rows.includes(value), `the store holds ${value}`);
      const again = await submit({ jobId: job.jobId });
      assert.equal(again.statusCode, 409, again.body);
    });

    test('an unredacted text job keeps its input for a resubmit; deleting the job removes it', async () => {
      const job = json(await submit({ text: 'plain words here' }, '?wait=300'));
      assert.equal(job.status, 'completed');
      assert.ok(!(await stored(job.jobId)).includes('plain words here'), 'not in the row');
      const again = json(await submit({ jobId: job.jobId, wait: 20 }));
      assert.equal(again.status, 'completed');
      assert.equal((await svc.request({ method: 'DELETE', url: `/asr/jobs/${job.jobId}` })).statusCode, 204);
      assert.deepEqual(await blobKeys(svc, `uploads/${job.jobId}/`), [], "the job's folder is gone");
    });
  });
}
