// The jobs table as a queue: claims by priority then age, leases that hand a stalled job to another worker,
// and a worker that lost its job can neither requeue nor finish it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { dbTime } from '../../src/store/dbClock.js';
import type { JobRow } from '../../src/store/tables.js';
import { dialects, startTestService, type TestService } from '../helpers/harness.js';
import { until } from '../helpers/poll.js';

function row(id: string, priority: number, createdAt: string): JobRow {
  return {
    id, status: 'queued', redaction_status: 'pending', priority, sid: null, model: 'text:input', file_name: null, audio_path: null,
    input_kind: 'text', record: '{}', params: '{}', attempts: 0, last_error: null, worker_id: null, run_id: null, lease_until: null,
    audio_seconds: null, processing_seconds: null, created_at: createdAt, updated_at: createdAt, started_at: null,
    completed_at: null, delete_after: null,
  };
}

for (const dialect of await dialects()) {
  describe(`job queue (${dialect})`, () => {
    let svc: TestService;
    before(async () => {
      svc = await startTestService(dialect, { workers: false });
    });
    after(() => svc.close());

    test('priority first, then age; a lapsed lease passes the job on; the old worker cannot touch it', async () => {
      const jobs = svc.services.store.jobs;
      await jobs.insert(row('old-normal', 0, '2026-01-01T00:00:00.000Z'));
      await jobs.insert(row('new-high', 10, '2026-01-02T00:00:00.000Z'));
      await jobs.insert(row('new-normal', 0, '2026-01-03T00:00:00.000Z'));
      assert.equal((await jobs.claimNext('a', 60_000))?.job.id, 'new-high');
      assert.equal((await jobs.claimNext('a', 60_000))?.job.id, 'old-normal');
      const stalled = await jobs.claimNext('a', 60_000);
      assert.equal(stalled?.job.id, 'new-normal');
      assert.equal(await jobs.claimNext('b', 60_000), undefined, 'nothing is due while the leases hold');
      // The lease runs out on the database's clock.
      await svc.services.store.database.db.updateTable('jobs').set({ lease_until: dbTime(svc.services.store.database.db, -1000) }).where('id', '=', 'new-normal').execute();
      const taken = await jobs.claimNext('b', 60_000);
      assert.deepEqual([taken?.job.id, taken?.job.attempts, taken?.takenOver], ['new-normal', 2, true]);
      const old = stalled!.run;
      assert.equal(await jobs.requeue(old, 'late'), false);
      assert.equal(await jobs.finish(old, { status: 'completed' }), false);
      assert.equal(await jobs.renewLease(old, 60_000), false);
      assert.equal(await jobs.saveResult(old, { late: true }), false);
      assert.equal(await jobs.result('new-normal'), undefined, 'the old run wrote no result');
      assert.equal(await jobs.requeue(taken!.run, 'transient'), true);
      assert.equal((await jobs.get('new-normal'))?.status, 'queued');
      const again = await jobs.claimNext('b', 60_000);
      assert.equal(await jobs.finish(again!.run, { status: 'failed', error: 'x', redactionStatus: 'failed' }), true);
      const failed = await jobs.get(again!.job.id);
      assert.deepEqual([failed?.status, failed?.redaction_status, failed?.last_error], ['failed', 'failed', 'x']);
    });

    test('a job whose attempts all ended with their process (a crash) fails with the reason instead of running again', async () => {
      const jobs = svc.services.store.jobs;
      // Claimed three times by processes that died mid-job: attempts 3, lease lapsed.
      await jobs.insert({ ...row('poison', 0, '2026-01-04T00:00:00.000Z'), status: 'processing', attempts: 3, worker_id: 'dead', run_id: 'dead-run', lease_until: new Date(0).toISOString() });
      await svc.services.worker.start();
      const job = await until(async () => {
        const found = await jobs.get('poison');
        return found?.status === 'failed' ? found : undefined;
      }, 'the poison job to fail');
      assert.equal(job?.status, 'failed');
      assert.match(job?.last_error ?? '', /started 3 times without finishing.* not tried again/);
      assert.equal(job?.attempts, 4);
    });
  });
}
