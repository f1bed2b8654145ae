// Migration 0017 queues, once, every call stored before search (0015), insight counts (0016) and call figures
// (0017): each completed job and each stored record, and nothing else (a queued or failed job has nothing to
// index). The queue's processing is tested through the service (test/api/search-filters.test.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JobRow } from '../../src/store/tables.js';
import { migratingDatabase } from '../helpers/databases.js';
import { dialects } from '../helpers/harness.js';

const at = '2026-01-01T00:00:00.000Z';

function jobRow(id: string, status: string): JobRow {
  return {
    id, status, redaction_status: 'completed', priority: 0, sid: null, model: 'text:input', file_name: null, audio_path: null,
    input_kind: 'text', record: '{}', params: '{}', attempts: 1, last_error: null, worker_id: null, run_id: null, lease_until: null,
    audio_seconds: null, processing_seconds: null, created_at: at, updated_at: at, started_at: null, completed_at: null, delete_after: null,
  };
}

for (const dialect of await dialects()) {
  test(`migration 0017 queues the completed jobs and stored records of before it for the backfill (${dialect})`, async () => {
    const { db, migrator, close } = await migratingDatabase(dialect);
    try {
      assert.equal((await migrator.migrateTo('0016_insight_hits')).error, undefined);
      for (const [id, status] of [['done-1', 'completed'], ['done-2', 'completed'], ['waiting', 'queued'], ['broken', 'failed']]) {
        await db.insertInto('jobs').values(jobRow(id, status)).execute();
      }
      await db
        .insertInto('conversations')
        .values({ event_id: 'rec-1', conversation_id: null, job_id: null, status: 'processed', record: '{}', size: 2, created_at: at, updated_at: at, delete_after: null })
        .execute();
      const { error } = await migrator.migrateToLatest();
      assert.equal(error, undefined, String(error));
      const queued = await db.selectFrom('backfill_queue').select(['kind', 'ref_id']).orderBy('kind').orderBy('ref_id').execute();
      assert.deepEqual(
        queued.map((r) => `${r.kind}:${r.ref_id}`),
        ['job:done-1', 'job:done-2', 'record:rec-1'],
      );
      // A call deleted later leaves its figures with it (the triggers of 0017).
      await db.insertInto('call_figures').values({ kind: 'job', ref_id: 'done-1', created_at: at }).execute();
      await db.deleteFrom('jobs').where('id', '=', 'done-1').execute();
      assert.equal((await db.selectFrom('call_figures').select('ref_id').execute()).length, 0);
    } finally {
      await close();
    }
  });
}
