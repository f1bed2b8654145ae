// The service fuzzed from its own /openapi.json: every operation gets requests sampled from its schemas and
// spoiled with hostile values, sent over a real socket on loopback, on SQLite and on PostgreSQL. Whatever a
// client sends, no answer is a 5xx (nor a 400 that only the database's refusal produced: validation must
// catch it first), and the service still answers at the end.
//
// Deterministic: the requests come from one seed (printed; FUZZ_SEED=n repeats a run, FUZZ_REQUESTS=n
// changes how many per database; FUZZ_DEBUG="POST /asr/transcribe" prints every answer of one operation).
// A 5xx is reported with its request and the server's logged error.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { dialects, json, startTestService, type TestService } from '../helpers/harness.js';
import { OpenApiFuzzer, Rng, type FuzzRequest } from '../helpers/openapiFuzz.js';

const SEED = Number(process.env.FUZZ_SEED ?? 15_2024);
const PER_DATABASE = Number(process.env.FUZZ_REQUESTS ?? 3000);
const CONCURRENCY = 2;

// Operations that are not fuzzed, and why. Every other operation of the document is (the test fails when a
// listed one no longer exists, so the list cannot go stale).
// None at present: `wait` (which blocks by design) is tamed instead of its operations excluded.
const EXCLUDED: Record<string, string> = {};

/** A 0.25 s mono 8 kHz 16-bit WAV of a quiet tone: a real recording for upload routes. */
function smallWav(): Buffer {
  const samples = 2000;
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) data.writeInt16LE(Math.round(2000 * Math.sin((2 * Math.PI * 440 * i) / 8000)), i * 2);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(8000, 24);
  header.writeUInt32LE(16000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

interface Answer {
  status: number;
  body: string;
}

/** Node's HTTP server refuses a request head over 16 KiB itself (431) and closes the connection. */
const MAX_HEAD = 16 * 1024;

function send(agent: http.Agent, port: number, key: string, req: FuzzRequest): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...req.headers, authorization: `Bearer ${key}` };
    if (req.body) headers['content-length'] = req.body.length;
    // An oversized head gets a connection of its own: the server answers 431 and closes it, maybe while the
    // request is still being written; the answer counts, the write error after it does not.
    const oversized = req.url.length + JSON.stringify(headers).length > MAX_HEAD;
    let answer: Answer | undefined;
    const r = http.request({ host: '127.0.0.1', port, method: req.method, path: req.url, headers, agent: oversized ? false : agent, timeout: 120_000 }, (res) => {
      const chunks: Buffer[] = [];
      answer = { status: res.statusCode ?? 0, body: '' };
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: answer!.status, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', () => resolve(answer!));
    });
    r.on('timeout', () => r.destroy(new Error('no answer within 120 s')));
    r.on('error', (error) => (answer ? resolve(answer) : reject(error)));
    r.end(req.body);
  });
}

function describeRequest(req: FuzzRequest): string {
  const body = req.body ? ` body(${req.body.length} B, ${req.headers['content-type']}): ${req.body.subarray(0, 300).toString('utf8')}` : '';
  return `${req.method} ${req.url.slice(0, 300)}${body}`;
}

for (const dialect of await dialects()) {
  describe(`fuzzing every operation of /openapi.json (${dialect})`, () => {
    let svc: TestService;
    let port: number;
    let key: string;
    const logLines: string[] = [];
    const ids = { jobs: [] as string[], disposableJobs: [] as string[] };

    before(async () => {
      // No worker and no notification sender: fuzzed jobs stay queued (no decoding load) and fuzzed webhook
      // targets are never called. The seeded jobs are run to completion first, by a worker started for them.
      // Warnings too: a value refused by the database is answered 400 but logged as a gap in validation.
      svc = await startTestService(dialect, { workers: false, logLines, logLevel: 'warn' });
      await svc.app.listen({ port: 0, host: '127.0.0.1' });
      port = (svc.app.server.address() as AddressInfo).port;
      key = (await svc.services.store.apiKeys.create('fuzz', 'admin')).key;
      const auth = { authorization: `Bearer ${key}` };
      const seed = async (url: string, payload: object) => {
        const res = await svc.request({ method: 'POST', url, payload, headers: auth });
        assert.ok(res.statusCode < 300, `seeding ${url}: ${res.statusCode} ${res.body}`);
        return json(res);
      };
      await seed('/system/cache/v2/publish', {
        data: JSON.stringify({ sid: 'fuzz-project', name: 'Fuzz', active: true, scrubtext: true, rules: [{ name: 'Person', active: true, mask_type: 'Placeholder', setting: '[PERSON]' }] }),
      });
      await seed('/cache/post-call', { eventId: 'fuzz-event', message: 'My name is Jane Doe.' });
      await seed('/cache/real-call', { engagementId: 'fuzz-live', text: 'hello there' });
      for (let i = 0; i < 3; i++) ids.jobs.push((await seed('/asr/transcribe', { text: `Agent: hello ${i}\nCaller: my name is Jane Doe`, scrubtext: true })).jobId);
      await svc.services.worker.start();
      for (const id of ids.jobs) await svc.services.jobs.waitFor(id, 120);
      await svc.services.worker.stop();
      for (let i = 0; i < 8; i++) ids.disposableJobs.push((await seed('/asr/transcribe', { text: `Caller: throw-away ${i}` })).jobId);
    });
    after(async () => svc?.close());

    test(`${PER_DATABASE} fuzzed requests (seed ${SEED}): none answered 5xx`, async () => {
      console.log(`# fuzz seed ${SEED} (${dialect}; FUZZ_SEED=${SEED} repeats this run)`);
      const doc = json(await svc.request({ method: 'GET', url: '/openapi.json' }));
      const known = (name: string, method: string): readonly string[] | undefined => {
        // Writes (delete, cancel, resubmit) aim at jobs of their own, so the completed ones stay readable.
        if (name === 'jobId') return method === 'GET' ? ids.jobs : ids.disposableJobs;
        return knownValues[name];
      };
      const models = json(await svc.request({ method: 'GET', url: '/asr/models', headers: { authorization: `Bearer ${key}` } })).models.map((m: { name: string }) => m.name);
      const knownValues: Record<string, string[]> = {
        eventId: ['fuzz-event'],
        key: ['fuzz-live'],
        engagementId: ['fuzz-live'],
        sid: ['fuzz-project'],
        name: ['uttmaxsilence', 'model', 'systemSettings', 'Person'],
        model: models,
        language: ['en-us'],
        types: ['Person', 'PhoneNumber', 'all'],
        direction: ['inbound', 'outbound'],
        // Loopback and a closed port: nothing is ever sent (no notification sender runs here) nor reachable.
        url: ['http://127.0.0.1:9/hook'],
        webhook: ['http://127.0.0.1:9/hook'],
        method: ['POST', 'PUT'],
        auth_headers: ['X-Token: fuzz'],
      };
      const fuzzer = new OpenApiFuzzer(doc, known, {
        // `wait` blocks by design (up to 600 s on a queued job): valid requests use 0; hostile values still come.
        wait: () => 0,
        // A project configuration is sent as JSON text: sampled from its own schema.
        data: (rng, self) => JSON.stringify(self.sample(self.schema('ProjectConfig'), rng)),
      }, smallWav());
      for (const id of Object.keys(EXCLUDED)) assert.ok(fuzzer.operations.some((op) => op.id === id), `excluded operation ${id} is not in the document`);
      const operations = fuzzer.operations.filter((op) => !(op.id in EXCLUDED));
      assert.ok(operations.length >= 25, `the document lists ${operations.length} operations`);

      const rng = new Rng(SEED);
      // Every operation once, then operations weighted by the input they take; the contents are random.
      const requests = Array.from({ length: PER_DATABASE }, (_, i) => fuzzer.request(i < operations.length ? operations[i] : fuzzer.pickOperation(operations, rng), rng));

      const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
      const failures: string[] = [];
      const statuses = new Map<string, Map<number, number>>();
      let next = 0;
      const worker = async () => {
        while (next < requests.length) {
          const req = requests[next++];
          const logged = logLines.length;
          let answer: Answer;
          try {
            answer = await send(agent, port, key, req);
          } catch (error) {
            failures.push(`${describeRequest(req)}\n  -> no answer: ${(error as Error).message}`);
            continue;
          }
          const counts = statuses.get(req.operation) ?? new Map<number, number>();
          counts.set(answer.status, (counts.get(answer.status) ?? 0) + 1);
          statuses.set(req.operation, counts);
          if (process.env.FUZZ_DEBUG && req.operation === process.env.FUZZ_DEBUG) console.log(`# ${answer.status} ${describeRequest(req).slice(0, 400)} => ${answer.body.slice(0, 300)}`);
          const gap = answer.status === 400 && /refused a value that validation let through/.test(logLines.slice(logged).join(''));
          if (answer.status >= 500 || gap) {
            const log = logLines.slice(logged).join('').slice(0, 1500);
            failures.push(`${describeRequest(req)}\n  -> ${answer.status}${gap ? ' (validation let it through to the database)' : ''} ${answer.body.slice(0, 300)}\n  log: ${log}`);
          }
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
      agent.destroy();

      for (const op of operations) {
        const counts = statuses.get(op.id);
        console.log(`# ${op.id}: ${counts ? [...counts.entries()].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${s}×${n}`).join(' ') : 'no answer'}`);
        // Skip nothing silently: every operation got its requests answered.
        assert.ok(counts && [...counts.values()].reduce((a, b) => a + b, 0) > 0, `${op.id} was never answered`);
      }
      assert.deepEqual(failures, [], `${failures.length} of ${requests.length} requests failed (seed ${SEED}):\n${failures.slice(0, 20).join('\n')}`);
    });

    test('the service still answers /health and the seeded records after the fuzzing', async () => {
      const health = await svc.request({ method: 'GET', url: '/health' });
      assert.equal(health.statusCode, 200);
      const job = await svc.request({ method: 'GET', url: `/asr/jobs/${ids.jobs[0]}`, headers: { authorization: `Bearer ${key}` } });
      assert.equal(job.statusCode, 200, job.body);
    });
  });
}
