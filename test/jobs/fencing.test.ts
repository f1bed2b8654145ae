// Fenced job runs: a run that lost its job (cancelled, resubmitted, deleted, taken over) writes nothing and
// is stopped; leases follow the database's clock; a database error at any step of a run leaves the job
// requeued, failed or completed — never stuck — and the process running.
// Runs are driven by an injected recognizer whose timing the test controls (the real engine is used by the
// other job tests); everything else — store, HTTP API, redaction, ffmpeg probing of the upload — is real.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import pino from 'pino';
import { textToTranscript } from '../../src/jobs/textTranscript.js';
import { JobWorker, type RecognizeFile } from '../../src/jobs/worker.js';
import { dbTime, readDbTime } from '../../src/store/dbClock.js';
import type { Repositories, Store } from '../../src/store/index.js';
import type { JobRow } from '../../src/store/tables.js';
import { ffmpeg, hasTool, tempDir } from '../helpers/audio.js';
import { migratingDatabase } from '../helpers/databases.js';
import { dialects, json, startTestService, testDatabase, type TestDatabase, type TestService } from '../helpers/harness.js';
import { multipart } from '../helpers/multipart.js';

const CALL = ['Agent: may i have your social security number', 'Caller: my social is one two three four five six seven eight nine'].join('\n');
const SECRET_WORDS = 'seven eight nine';

/** Poll `check` until it answers truthy (bounded by tries, not by a duration asserted anywhere). */
async function until<T>(check: () => Promise<T> | T, what: string, tries = 600): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const value = await check();
    if (value) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`gave up waiting for ${what}`);
}

/** A recognizer whose calls the test holds and releases; each call answers CALL as its transcript. */
class HeldRecognizer {
  readonly calls: { signal?: AbortSignal; release: () => void }[] = [];
  /** How the next calls are held: until released, ignoring their signal (a run that does not stop), or until aborted. */
  private holds: ('ignoring-signal' | 'until-aborted')[] = [];

  hold(...modes: ('ignoring-signal' | 'until-aborted')[]): void {
    this.holds.push(...modes);
  }

  readonly recognize: RecognizeFile = async (_file, options) => {
    const mode = this.holds.shift();
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    this.calls.push({ signal: options.signal, release });
    if (mode === 'ignoring-signal') await released;
    if (mode === 'until-aborted') {
      await new Promise<void>((resolve) => options.signal?.addEventListener('abort', () => resolve(), { once: true }));
      options.signal!.throwIfAborted();
    }
    return { ...textToTranscript(CALL, 'en-us:test', 0), engine: 'test' };
  };
}

const canRun = hasTool('ffmpeg');

for (const dialect of await dialects()) {
  describe(`fenced job runs (${dialect})`, { skip: !canRun && 'needs ffmpeg' }, () => {
    let database: TestDatabase;
    /** Runs jobs, with the held recognizer; a long lease, so only the fence (not a renewal) can stop a run. */
    let a: TestService;
    /** Another process on the same database, without workers: its cancels and deletes reach `a` by the store only. */
    let b: TestService;
    let dir: string;
    let audio: Buffer;
    const logLines: string[] = [];
    const recognizer = new HeldRecognizer();

    before(async () => {
      database = await testDatabase(dialect);
      a = await startTestService(dialect, {
        database,
        env: { SCRUBLINE_WORKERS: '2', SCRUBLINE_JOB_LEASE_MS: '600000' },
        logLines,
        overrides: { recognize: recognizer.recognize },
      });
      b = await startTestService(dialect, { database, workers: false });
      dir = tempDir();
      ffmpeg(['-f', 'lavfi', '-i', 'sine=frequency=300:duration=1', '-ar', '16000', path.join(dir, 'call.wav')]);
      audio = fs.readFileSync(path.join(dir, 'call.wav'));
    });
    after(async () => {
      for (const call of recognizer.calls) call.release();
      await b.close();
      await a.close();
      await database.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    async function submit(): Promise<string> {
      const res = await a.request({ method: 'POST', url: '/asr/transcribe', ...multipart({}, [{ name: 'audio', filename: 'call.wav', content: audio }]) });
      assert.equal(res.statusCode, 202, res.body);
      return json(res).jobId;
    }
    const job = async (svc: TestService, id: string) => json(await svc.request({ method: 'GET', url: `/asr/jobs/${id}` }));
    const resultRow = (id: string) => b.services.store.database.db.selectFrom('job_results').selectAll().where('job_id', '=', id).executeTakeFirst();

    test('cancel → resubmit with types while the first run is still recognizing: the redacted transcript stays, redactionStatus is honest', async () => {
      recognizer.hold('ignoring-signal', 'ignoring-signal');
      const calls = recognizer.calls.length;
      const id = await submit();
      await until(() => recognizer.calls.length > calls, 'the first run to start recognizing');
      const zombie = recognizer.calls[calls];
      // Another process cancels and resubmits: this process hears of it only through the store.
      assert.equal((await b.request({ method: 'POST', url: `/asr/jobs/${id}/cancel` })).statusCode, 200);
      const resubmitted = await b.request({ method: 'POST', url: '/asr/transcribe', payload: { jobId: id, types: 'USSocialSecurityNumber' } });
      assert.equal(resubmitted.statusCode, 202, resubmitted.body);
      // The second run (same process, same worker id, same attempt number) is recognizing too.
      await until(() => recognizer.calls.length > calls + 1, 'the second run to start recognizing');
      assert.equal(zombie.signal?.aborted, false, 'the first run has not been told (another process cancelled)');

      // The first run ends with its unredacted words while the job is processing again: the fence (its claim,
      // not the job's state) refuses every write it tries.
      zombie.release();
      await until(() => logLines.some((l) => l.includes(id) && l.includes('run stopped')), 'the first run to log that it stopped');
      assert.equal(a.services.worker.busy, 1, 'only the second run is left');
      assert.equal(await resultRow(id), undefined, 'the first run stored nothing');
      recognizer.calls[calls + 1].release();
      const done = await until(async () => ((await job(b, id)).status === 'completed' ? job(b, id) : undefined), 'the second run to complete');
      assert.equal(done.redactionStatus, 'completed');
      await until(() => a.services.worker.busy === 0, 'the runs to end');
      const after = await job(b, id);
      assert.equal(after.status, 'completed');
      assert.equal(after.redactionStatus, 'completed');
      const stored = JSON.stringify((await resultRow(id))?.transcript);
      assert.ok(!stored.includes(SECRET_WORDS), 'the stored transcript is the redacted one');
      const text = (await b.request({ method: 'GET', url: `/asr/jobs/${id}/transcript?format=text` })).body;
      assert.ok(!text.includes(SECRET_WORDS), text);
      const events = json(await b.request({ method: 'GET', url: `/system/events?subject=${id}&limit=100` })).events as { subType: string }[];
      assert.equal(events.filter((e) => e.subType === 'completed').length, 1, 'one completion: the second run\'s');
    });

    test('DELETE during a run: no result row, no deliveries, and the events stay as the audit trail', async () => {
      recognizer.hold('ignoring-signal');
      const calls = recognizer.calls.length;
      const id = await submit();
      await until(() => recognizer.calls.length > calls, 'the run to start recognizing');
      assert.equal((await b.request({ method: 'DELETE', url: `/asr/jobs/${id}` })).statusCode, 204);
      recognizer.calls[calls].release();
      await until(() => a.services.worker.busy === 0, 'the run to end');
      assert.equal(await resultRow(id), undefined, 'no orphan job_results row');
      const db = b.services.store.database.db;
      assert.equal((await db.selectFrom('deliveries').select('id').where('job_id', '=', id).execute()).length, 0);
      const events = await db.selectFrom('events').select(['sub_type', 'job_id']).where('subject', '=', id).execute();
      assert.ok(events.some((e) => e.sub_type === 'deleted'));
      assert.ok(events.every((e) => e.job_id === null), 'their link to the deleted job is cleared');
      assert.ok(!events.some((e) => e.sub_type === 'completed' || e.sub_type === 'transcribed'), 'the lost run recorded nothing');
    });

    test('cancel in this process aborts the run: recognition sees its signal aborted', async () => {
      recognizer.hold('until-aborted');
      const calls = recognizer.calls.length;
      const id = await submit();
      await until(() => recognizer.calls.length > calls, 'the run to start recognizing');
      assert.equal((await a.request({ method: 'POST', url: `/asr/jobs/${id}/cancel` })).statusCode, 200);
      const signal = recognizer.calls[calls].signal!;
      assert.equal(signal.aborted, true);
      assert.match(String((signal.reason as Error).message), /cancelled/);
      await until(() => a.services.worker.busy === 0, 'the run to end');
      assert.equal((await job(a, id)).status, 'cancelled');
      assert.equal(await resultRow(id), undefined);
    });

    test('cancel in another process: the run stops at its next lease renewal', async () => {
      const held = new HeldRecognizer();
      const worker = new JobWorker({
        store: a.services.store,
        blobs: a.services.blobs,
        tempDir: path.join(database.dataDir, 'staging'),
        recognize: held.recognize,
        logger: pino({ level: 'silent' }),
        concurrency: 1,
        maxAudioSeconds: 60,
        engineParams: async () => ({}),
        leaseMs: 600,
        pollMs: 20,
      });
      await a.services.worker.stop();
      try {
        held.hold('until-aborted');
        await worker.start();
        const id = await submit();
        await until(() => held.calls.length > 0, 'the run to start recognizing');
        assert.equal((await b.request({ method: 'POST', url: `/asr/jobs/${id}/cancel` })).statusCode, 200);
        await until(() => held.calls[0].signal?.aborted, 'the renewal to find the job lost and abort the run');
        await until(() => worker.busy === 0, 'the run to end');
        assert.equal((await job(b, id)).status, 'cancelled');
      } finally {
        await worker.stop();
        await a.services.worker.start();
      }
    });
  });

  describe(`leases on the database clock (${dialect})`, () => {
    let svc: TestService;
    const RealDate = Date;
    /** Move this machine's clock (Date) by `ms`; the database's is untouched. */
    function skew(ms: number): void {
      class Skewed extends RealDate {
        constructor(...args: unknown[]) {
          if (args.length === 0) super(RealDate.now() + ms);
          else super(...(args as [string]));
        }
        static override now(): number {
          return RealDate.now() + ms;
        }
      }
      globalThis.Date = Skewed as DateConstructor;
    }
    before(async () => {
      svc = await startTestService(dialect, { workers: false });
    });
    after(async () => {
      globalThis.Date = RealDate;
      await svc.close();
    });

    test('a lease holds and runs out by database time, whatever this machine\'s clock says', async () => {
      const { jobs, database } = svc.services.store;
      const db = database.db;
      const at = '2026-01-01T00:00:00.000Z';
      await jobs.insert({ ...queuedRow('held'), status: 'processing', worker_id: 'other', run_id: 'r1', attempts: 1, created_at: at, updated_at: at });
      await db.updateTable('jobs').set({ lease_until: dbTime(db, 3_600_000) }).where('id', '=', 'held').execute();
      try {
        skew(2 * 3_600_000); // this machine runs two hours ahead: by its clock the lease is over
        assert.equal(await jobs.claimNext('me', 60_000), undefined, 'the lease still holds by the database clock');
        await db.updateTable('jobs').set({ lease_until: dbTime(db, -1000) }).where('id', '=', 'held').execute();
        skew(-2 * 3_600_000); // two hours behind: by its clock the lease would hold for hours yet
        const claim = await jobs.claimNext('me', 3_600_000);
        assert.deepEqual([claim?.job.id, claim?.takenOver, claim?.run.attempt], ['held', true, 2]);
        const row = (await jobs.get('held'))!;
        assert.ok(row.lease_until! > (await readDbTime(db, 1_800_000)), 'the new lease is set from the database clock');
        await db.updateTable('jobs').set({ lease_until: dbTime(db, -1) }).where('id', '=', 'held').execute();
        assert.equal(await jobs.renewLease(claim!.run, 60_000), false, 'a lapsed lease is a lost job: no renewal');
        assert.equal(await jobs.hold(claim!.run), false);
      } finally {
        globalThis.Date = RealDate;
      }
    });
  });

  describe(`a database error at each step of a run (${dialect})`, () => {
    let svc: TestService;
    before(async () => {
      svc = await startTestService(dialect, { workers: false });
    });
    after(() => svc.close());

    test('the process survives; the job ends completed, or failed or requeued with the error; never stuck', async () => {
      const rejections: unknown[] = [];
      const onRejection = (reason: unknown) => rejections.push(reason);
      process.on('unhandledRejection', onRejection);
      try {
        const store = svc.services.store;
        // A clean run first: how many store calls it makes.
        const clean = faulty(store, Infinity);
        await runOne(clean.store, 'clean');
        assert.equal((await store.jobs.get('clean'))?.status, 'completed');
        const steps = clean.calls();
        assert.ok(steps >= 5, `a run makes ${steps} store calls`);
        for (let n = 1; n <= steps; n++) {
          const id = `fault-${n}`;
          const wrapped = faulty(store, n);
          const final = await runOne(wrapped.store, id);
          assert.ok(wrapped.failed(), `call ${n} failed`);
          assert.ok(['completed', 'failed'].includes(final.status), `call ${n}: the job ended ${final.status}`);
          if (final.status === 'failed') assert.match(final.last_error ?? '', /database is locked/, `call ${n}`);
          if (final.attempts > 1) {
            const events = await store.events.list({ subject: id, limit: 50, offset: 0 });
            assert.ok(events.some((e) => e.subType === 'retrying' && /database is locked/.test(e.message ?? '')), `call ${n}: requeued with the error`);
          }
        }
        await new Promise((r) => setImmediate(r));
        assert.deepEqual(rejections, [], 'no unhandled rejection');
      } finally {
        process.off('unhandledRejection', onRejection);
      }
    });

    /** Run one audio job (an injected recognizer: no file is read) on a worker over `store` until it ends. */
    async function runOne(store: Store, id: string): Promise<JobRow> {
      const now = new Date().toISOString();
      await svc.services.blobs.put(`uploads/${id}/call.wav`, 'not read: the recognizer is injected');
      await svc.services.store.jobs.insert({ ...queuedRow(id), input_kind: 'audio', audio_path: `uploads/${id}/call.wav`, model: 'en-us:test', created_at: now, updated_at: now });
      const worker = new JobWorker({
        store,
        blobs: svc.services.blobs,
        tempDir: path.join(svc.database.dataDir, 'staging'),
        recognize: async () => ({ ...textToTranscript(CALL, 'en-us:test', 0), engine: 'test' }),
        logger: pino({ level: 'silent' }),
        concurrency: 1,
        maxAudioSeconds: 60,
        engineParams: async () => ({}),
        leaseMs: 600_000,
        pollMs: 10,
        maxAttempts: 2,
      });
      await worker.start();
      try {
        return await until(async () => {
          const row = await svc.services.store.jobs.get(id);
          return row && ['completed', 'failed'].includes(row.status) && worker.busy === 0 ? row : undefined;
        }, `job ${id} to end`) as JobRow;
      } finally {
        await worker.stop();
      }
    }
  });

  test(`migration 0005 drops orphans and ties results, deliveries and events to their job (${dialect})`, async () => {
    const { db, migrator, close } = await migratingDatabase(dialect);
    try {
      assert.equal((await migrator.migrateTo('0004_redaction_spans')).error, undefined);
      const at = '2026-01-01T00:00:00.000Z';
      const { run_id: _r, ...oldRow } = { ...queuedRow('kept'), created_at: at, updated_at: at };
      await db.insertInto('jobs').values(oldRow).execute();
      for (const jobId of ['kept', 'gone']) {
        await db.insertInto('job_results').values({ job_id: jobId, transcript: '{}', redaction: null, created_at: at }).execute();
        await db
          .insertInto('deliveries')
          .values({ id: `d-${jobId}`, job_id: jobId, url: 'https://x.example/', method: 'POST', headers: '[]', payload: '{}', status: 'pending', attempts: 0, next_attempt_at: at, log: '[]', created_at: at, updated_at: at })
          .execute();
        await db.insertInto('events').values({ id: `e-${jobId}`, type: 'job', sub_type: 'queued', subject: jobId, record: '{}', created_at: at }).execute();
      }
      const { error } = await migrator.migrateToLatest();
      assert.equal(error, undefined, String(error));
      if (dialect === 'sqlite') await sql`pragma foreign_keys = on`.execute(db);
      assert.deepEqual((await db.selectFrom('job_results').select('job_id').execute()).map((r) => r.job_id), ['kept']);
      assert.deepEqual((await db.selectFrom('deliveries').select('job_id').execute()).map((r) => r.job_id), ['kept']);
      assert.deepEqual((await db.selectFrom('events').select(['subject', 'job_id']).orderBy('subject').execute()).map((r) => [r.subject, r.job_id]), [['gone', null], ['kept', 'kept']]);
      await assert.rejects(db.insertInto('job_results').values({ job_id: 'nobody', transcript: '{}', redaction: null, created_at: at }).execute(), 'a result needs its job');
      await db.deleteFrom('jobs').where('id', '=', 'kept').execute();
      assert.equal((await db.selectFrom('job_results').select('job_id').execute()).length, 0, 'results cascade');
      assert.equal((await db.selectFrom('deliveries').select('job_id').execute()).length, 0, 'deliveries cascade');
      assert.equal((await db.selectFrom('events').select('id').execute()).length, 2, 'events stay');
    } finally {
      await close();
    }
  });
}

test('a rejected promise nobody handles is logged and the process keeps running', () => {
  const script = `
    import { createLogger } from './src/observability/logger.ts';
    import { installLastResortHandlers } from './src/observability/lastResort.ts';
    installLastResortHandlers(createLogger('info'));
    Promise.reject(new Error('database is locked'));
    setTimeout(() => console.log('still running'), 50);
  `;
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', cwd: path.resolve(import.meta.dirname, '../..') });
  assert.equal(child.status, 0, child.stderr);
  assert.match(child.stdout, /rejected with no handler/);
  assert.match(child.stdout, /database is locked/);
  assert.match(child.stdout, /still running/);
});

/** A store whose repositories' `failAt`-th call (counting every call, in transactions too) throws 'database is locked'. */
function faulty(store: Store, failAt: number): { store: Store; calls: () => number; failed: () => boolean } {
  let calls = 0;
  // The run's own calls end with its last non-claim call: after it the idle worker polls claimNext for as long as
  // the test takes to notice, a number that depends on the machine's speed, not on the run.
  let runCalls = 0;
  let failed = false;
  const tick = (name: string) => {
    calls++;
    if (name !== 'claimNext') runCalls = calls;
    if (calls === failAt) {
      failed = true;
      throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
    }
  };
  const wrapRepo = <T extends object>(repo: T): T =>
    new Proxy(repo, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver);
        if (typeof value !== 'function') return value;
        return async (...args: unknown[]) => {
          tick(String(key));
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
  const wrapAll = (repos: Repositories): Repositories => ({
    ...repos,
    jobs: wrapRepo(repos.jobs),
    events: wrapRepo(repos.events),
    deliveries: wrapRepo(repos.deliveries),
  });
  const wrapped: Store = {
    ...store,
    ...wrapAll(store),
    transaction: (work) =>
      store.transaction(async (tx) => {
        tick('transaction');
        return work(wrapAll(tx));
      }),
  };
  return { store: wrapped, calls: () => runCalls, failed: () => failed };
}

function queuedRow(id: string): JobRow {
  return {
    id, status: 'queued', redaction_status: 'not_requested', priority: 0, sid: null, model: 'text:input', file_name: null, audio_path: null,
    input_kind: 'text', record: '{}', params: '{}', attempts: 0, last_error: null, worker_id: null, run_id: null, lease_until: null,
    audio_seconds: null, processing_seconds: null, created_at: '', updated_at: '', started_at: null, completed_at: null, delete_after: null,
  };
}

test('an abort reaches the real pipeline: ffmpeg is stopped mid-decode, recognition rejects with the reason', { skip: !canRun && 'needs ffmpeg' }, async () => {
  const { decodeChannels } = await import('../../src/audio/decode.js');
  const { probeAudio } = await import('../../src/audio/probe.js');
  const { recognizeFile } = await import('../../src/engine/recognize.js');
  const dir = tempDir();
  try {
    const file = path.join(dir, 'long.wav');
    ffmpeg(['-f', 'lavfi', '-i', 'sine=frequency=300:duration=600', '-ar', '16000', file]);
    const probe = await probeAudio(file);
    const controller = new AbortController();
    const decoding = decodeChannels(file, { probe, signal: controller.signal });
    controller.abort(new Error('the job was cancelled'));
    await assert.rejects(decoding, /the job was cancelled/);
    await assert.rejects(recognizeFile(file, { signal: controller.signal }), /the job was cancelled/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
