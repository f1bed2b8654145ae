// Metrics from API and worker processes alike pass `promtool check metrics` (Prometheus's own linter; CI
// requires it: SCRUBLINE_REQUIRE_PROMTOOL=1), and a scaled-out `scrubline worker` shows the jobs it ran, the
// notifications it settled and its capacity on its own metrics port.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { startWorkerProcess, type WorkerProcess } from '../helpers/cli.js';
import { dialects, json, startTestService, testDatabase, type TestDatabase, type TestService } from '../helpers/harness.js';

const REQUIRED = process.env.SCRUBLINE_REQUIRE_PROMTOOL === '1';
const hasPromtool = spawnSync('promtool', ['--version']).status === 0;

/** `promtool check metrics` on an exposition: its complaints, none when it passes. */
function promtoolProblems(text: string): string[] {
  const run = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
  const said = `${run.stdout}${run.stderr}`.split('\n').filter(Boolean);
  return run.status === 0 ? said : ['exit ' + run.status, ...said];
}

/** The checks promtool's linter makes that matter most, for machines without it: names, suffixes, one HELP/TYPE. */
function expositionProblems(text: string): string[] {
  const problems: string[] = [];
  const types = new Map<string, string>();
  const helps = new Set<string>();
  for (const line of text.split('\n')) {
    const meta = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
    if (!meta) continue;
    const [, kind, name, rest] = meta;
    if (!/^[a-zA-Z_:][a-zA-Z0-9_:]*$/.test(name)) problems.push(`${name}: not a valid metric name`);
    if (kind === 'HELP') {
      if (helps.has(name)) problems.push(`${name}: HELP twice`);
      helps.add(name);
      if (!rest) problems.push(`${name}: no help text`);
    } else {
      if (types.has(name)) problems.push(`${name}: TYPE twice`);
      types.set(name, rest);
    }
  }
  for (const [name, type] of types) {
    if (type === 'counter' && !name.endsWith('_total')) problems.push(`${name}: a counter not ending in _total`);
    if (type !== 'counter' && name.endsWith('_total')) problems.push(`${name}: a ${type} ending in _total`);
    if (/_(milli|micro|nano)seconds|_kilobytes|_megabytes/.test(name)) problems.push(`${name}: not in base units`);
  }
  return problems;
}

function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, ms = 90_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) assert.fail(`${what}: still ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('promtool is installed where it is required', { skip: !REQUIRED && !hasPromtool && 'promtool is not installed (Debian package prometheus)' }, () => {
  assert.ok(hasPromtool, 'SCRUBLINE_REQUIRE_PROMTOOL=1 but `promtool` is not on PATH: install the Debian package prometheus');
});

for (const dialect of await dialects()) {
  describe(`metrics of API and worker processes (${dialect})`, () => {
    let database: TestDatabase;
    let api: TestService;
    let worker: WorkerProcess;
    before(async () => {
      database = await testDatabase(dialect);
      // Loopback receivers are refused unless allowed: this one is allowed so its delivery fails at connect.
      const env = { SCRUBLINE_SECRET_KEY: 'test-secret-key', SCRUBLINE_WEBHOOK_RETRY_MS: '0', SCRUBLINE_WEBHOOK_ALLOW: '127.0.0.0/8' };
      // The API runs no jobs; a separate `scrubline worker` process runs them and has the metrics of them.
      api = await startTestService(dialect, { database, workers: false, env });
      worker = await startWorkerProcess({ ...database.env, ...env, SCRUBLINE_WORKERS: '1', SCRUBLINE_MAX_STREAMS: '2' }, ['--metrics-port', '0']);
    });
    after(async () => {
      await worker?.stop('SIGKILL');
      await api?.close();
      await database?.drop();
    });
    const scrapeWorker = async () => {
      const res = await fetch(`${worker.metricsUrl}`);
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^text\/plain/);
      return res.text();
    };
    const scrapeApi = async () => (await api.request({ method: 'GET', url: '/asr/metrics' })).body;

    test('the worker process counts the job it completed and the notification it settled; the API process does not', async () => {
      assert.match(worker.metricsUrl ?? '', /^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
      const res = await api.request({
        method: 'POST',
        url: '/asr/transcribe?wait=90',
        // Nothing listens on port 1: the delivery fails on both of its attempts.
        payload: { text: 'Agent: hello\nCaller: hi there', notification: { url: 'http://127.0.0.1:1/hook' } },
      });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(json(res).status, 'completed');
      const jobId = json(res).jobId;

      const text = await eventually(scrapeWorker, (t) => sample(t, 'scrubline_webhook_deliveries_total{outcome="failed"}') === 1, 'the failed delivery counted');
      assert.equal(sample(text, 'scrubline_jobs_finished_total{status="completed"}'), 1);
      assert.equal(sample(text, 'scrubline_job_queue_wait_seconds_count'), 1);
      assert.equal(sample(text, 'scrubline_worker_jobs{kind="slots"}'), 1);
      assert.equal(sample(text, 'scrubline_jobs{state="completed"}'), 1, 'the database gauge, the same from every process');

      const apiText = await scrapeApi();
      assert.equal(sample(apiText, 'scrubline_jobs_finished_total{status="completed"}'), 0, 'the API process ran no job');
      assert.equal(sample(apiText, 'scrubline_worker_jobs{kind="slots"}'), 0);
      assert.equal(sample(apiText, 'scrubline_jobs{state="completed"}'), 1);

      // A delivery waiting for its time is the backlog, read from the database by any process.
      await api.services.outbox.enqueue(api.services.store.deliveries, { jobId, url: 'https://example.com/hook', payload: {}, notBefore: new Date(Date.now() + 3600_000) });
      assert.equal(sample(await scrapeApi(), 'scrubline_webhook_backlog'), 1);
      assert.equal(sample(await scrapeWorker(), 'scrubline_webhook_backlog'), 1);
    });

    test('the worker process is in the cluster capacity while it runs, and leaves it when it stops', async () => {
      const check = json(await api.request({ method: 'GET', url: '/asr/maxstreamscheck' }));
      assert.deepEqual(check.processes.map((p: { id: string; role: string; pid: number; capacity: number }) => [p.id, p.role, p.pid, p.capacity]), [
        [worker.id, 'worker', worker.child.pid, 2],
      ]);
      assert.equal(check.capacity, 2);
    });

    test('both expositions pass promtool check metrics and the exposition checks', async () => {
      for (const [who, text] of [['worker', await scrapeWorker()], ['api', await scrapeApi()]] as const) {
        assert.deepEqual(expositionProblems(text), [], who);
        if (hasPromtool) assert.deepEqual(promtoolProblems(text), [], `${who}: promtool check metrics`);
        else if (REQUIRED) assert.fail('promtool is required (SCRUBLINE_REQUIRE_PROMTOOL=1) and missing');
      }
      // The bare endpoint serves nothing else.
      assert.equal((await fetch(worker.metricsUrl!.replace('/metrics', '/other'))).status, 404);
    });

    test('a worker stopped cleanly removes its row: its capacity is gone at once', async () => {
      assert.equal(await worker.stop('SIGTERM'), 0, worker.output());
      const check = json(await api.request({ method: 'GET', url: '/asr/maxstreamscheck' }));
      assert.deepEqual([check.capacity, check.processes.length, check.accepting], [0, 0, false]);
    });
  });
}
