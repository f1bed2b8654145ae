// Admission instead of timeouts, and limits that hold whatever a file declares: many concurrent uploads of good
// audio are each accepted or answered 503 + Retry-After (never refused as bad audio, never lost); a stream that
// declares no duration is measured against the limit; a zip bomb is refused with nothing left on disk; zips past
// the unpacking cap are answered 503. No timing is asserted: only answers and state.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { decodeChannels } from '../../src/audio/decode.js';
import { AudioError } from '../../src/audio/errors.js';
import { AdmissionLimiter, BusyError } from '../../src/audio/limiter.js';
import { probeAudio } from '../../src/audio/probe.js';
import { extractRecordings, RATIO_FLOOR_BYTES } from '../../src/audio/unzip.js';
import { ffmpeg, hasTool, tempDir } from '../helpers/audio.js';
import { dialects, json, startTestService, type TestService } from '../helpers/harness.js';
import { blobExists, blobKeys } from '../helpers/blobs.js';
import { multipart } from '../helpers/multipart.js';

const canRun = hasTool('ffmpeg') && hasTool('ffprobe') && fs.existsSync('/usr/share/pocketsphinx/model/en-us/en-us');
const MAX_SECONDS = 5;

async function zipOf(entries: { name: string; content: Buffer }[]): Promise<Buffer> {
  const { ZipFile } = await import('yazl');
  const zip = new ZipFile();
  for (const entry of entries) zip.addBuffer(entry.content, entry.name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A zip whose central directory says an entry unpacks to `declared` bytes, whatever it really holds. */
function lyingAboutSize(zip: Buffer, declared: number): Buffer {
  const out = Buffer.from(zip);
  for (let at = out.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])); at >= 0; at = out.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]), at + 4)) {
    out.writeUInt32LE(declared, at + 24);
  }
  return out;
}

/** A PCM WAV header (16-bit) declaring `dataBytes` of samples (0xFFFFFFFF: unknown, as a streaming writer leaves it). */
function wavHeader(sampleRate: number, channels: number, dataBytes: number): Buffer {
  const b = Buffer.alloc(44);
  b.write('RIFF', 0);
  b.writeUInt32LE(Math.min(0xffffffff, 36 + dataBytes), 4);
  b.write('WAVE', 8);
  b.write('fmt ', 12);
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20);
  b.writeUInt16LE(channels, 22);
  b.writeUInt32LE(sampleRate, 24);
  b.writeUInt32LE(sampleRate * channels * 2, 28);
  b.writeUInt16LE(channels * 2, 32);
  b.writeUInt16LE(16, 34);
  b.write('data', 36);
  b.writeUInt32LE(dataBytes, 40);
  return b;
}

test('a zip entry that is not a WAV unpacks to at most 100 times its compressed size (past 64 MiB), whatever the caps allow', async () => {
  const dir = tempDir();
  try {
    const zip = path.join(dir, 'silence.zip');
    fs.writeFileSync(zip, await zipOf([{ name: 'silence.aiff', content: Buffer.alloc(RATIO_FLOOR_BYTES + 8 * 1024 * 1024) }]));
    const out = path.join(dir, 'out');
    await assert.rejects(extractRecordings(zip, out, { maxEntries: 10, maxTotalBytes: 1024 ** 3 }), (error: unknown) => {
      assert.equal((error as { extra: Record<string, unknown> }).extra.reason, 'zip_entry_not_a_recording');
      assert.equal((error as { extra: Record<string, unknown> }).extra.limitBytes, RATIO_FLOOR_BYTES);
      return true;
    });
    assert.deepEqual(fs.readdirSync(out), [], 'nothing left');
    // Under the floor, a small entry is never refused for its ratio.
    fs.writeFileSync(zip, await zipOf([{ name: 'short.aiff', content: Buffer.alloc(1024 * 1024) }]));
    assert.equal((await extractRecordings(zip, out, { maxEntries: 10, maxTotalBytes: 1024 ** 3 })).length, 1);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

describe('admission limiter', () => {
  test('runs at most `concurrency`, queues at most `queue`, refuses the rest with a retryable BusyError', async () => {
    const limiter = new AdmissionLimiter({ name: 'testing', concurrency: 2, queue: 3 });
    const release: (() => void)[] = [];
    const started: number[] = [];
    const flush = () => new Promise((r) => setImmediate(r));
    const outcomes = Array.from({ length: 8 }, (_, i) =>
      limiter
        .run(() => new Promise<void>((resolve) => ((release[i] = resolve), started.push(i))))
        .then(
          () => 'done',
          (error: unknown) => error,
        ),
    );
    await flush();
    assert.deepEqual(started, [0, 1]);
    assert.equal(limiter.running, 2);
    assert.equal(limiter.queued, 3);
    for (const error of (await Promise.all(outcomes.slice(5))) as BusyError[]) {
      assert.ok(error instanceof BusyError);
      assert.equal(error.kind, 'unavailable');
      assert.equal(error.extra.retryable, true);
      assert.ok(Number(error.extra.retryAfter) >= 1);
    }
    // Each finished turn goes to the next waiter, in arrival order, never more than two at once.
    for (let k = 0; k < 5; k++) {
      release[k]();
      await flush();
      assert.equal(started.length, Math.min(5, k + 3));
      assert.ok(limiter.running <= 2);
    }
    assert.deepEqual(started, [0, 1, 2, 3, 4]);
    assert.deepEqual(await Promise.all(outcomes.slice(0, 5)), ['done', 'done', 'done', 'done', 'done']);
    assert.equal(limiter.running, 0);
    assert.equal(limiter.queued, 0);
  });
});

for (const dialect of await dialects()) {
  describe(`upload admission (${dialect})`, { skip: !canRun && 'ffmpeg/ffprobe or the PocketSphinx model is not installed' }, () => {
    let svc: TestService;
    let dir: string;
    let base: string;
    let wav: Buffer;
    const tmpFiles = () => fs.readdirSync(path.join(svc.database.dataDir, 'tmp'));

    before(async () => {
      // Workers off: accepted jobs stay queued, so what is asserted is admission, not recognition.
      svc = await startTestService(dialect, {
        workers: false,
        logLevel: 'warn',
        env: {
          SCRUBLINE_PROBE_CONCURRENCY: '2',
          SCRUBLINE_PROBE_QUEUE: '6',
          SCRUBLINE_UNZIP_CONCURRENCY: '1',
          SCRUBLINE_MAX_AUDIO_SECONDS: String(MAX_SECONDS),
          SCRUBLINE_ZIP_MAX_BYTES: String(8 * 1024 * 1024),
          SCRUBLINE_ZIP_MAX_ENTRY_BYTES: String(6 * 1024 * 1024),
          SCRUBLINE_RATE_LIMIT_PER_MINUTE: '0',
        },
      });
      await svc.app.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(svc.app.server.address() as AddressInfo).port}`;
      dir = tempDir();
      const file = path.join(dir, 'three.wav');
      ffmpeg(['-f', 'lavfi', '-i', 'sine=frequency=440:duration=3', '-ar', '16000', '-ac', '1', file]);
      wav = fs.readFileSync(file);
    });
    after(async () => {
      await svc.close();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    const upload = (content: Buffer, filename: string, fields: Record<string, string> = {}) => {
      const body = multipart(fields, [{ name: 'audio', filename, content }]);
      return fetch(`${base}/asr/transcribe`, { method: 'POST', headers: body.headers, body: body.payload });
    };

    test('200 concurrent uploads of good audio: each accepted or 503 + Retry-After, none refused as bad, none lost', async (t) => {
      const answers = await Promise.all(
        Array.from({ length: 200 }, async (_, i) => {
          const res = await upload(wav, `call-${i}.wav`);
          return { i, status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as Record<string, any> };
        }),
      );
      const accepted = answers.filter((a) => a.status === 202);
      const busy = answers.filter((a) => a.status === 503);
      const other = answers.filter((a) => a.status !== 202 && a.status !== 503);
      assert.deepEqual(other.map((a) => `${a.status} ${a.body.detail}`), [], 'only 202 or 503');
      for (const a of busy) {
        assert.ok(Number(a.retryAfter) >= 1, `Retry-After on 503: ${a.retryAfter}`);
        assert.equal(a.body.retryable, true);
        assert.equal(a.body.status, 503);
      }
      t.diagnostic(`${accepted.length} accepted, ${busy.length} answered 503 (then accepted when sent again)`);

      // A refused upload is retryable: sent again a few at a time, every one is accepted.
      const retried: typeof answers = [];
      const pending = busy.map((a) => a.i);
      for (let attempts = 0; pending.length > 0 && attempts < 2000; attempts++) {
        const batch = pending.splice(0, 2);
        for (const res of await Promise.all(batch.map(async (i) => ({ i, res: await upload(wav, `call-${i}.wav`) })))) {
          const body = (await res.res.json()) as Record<string, any>;
          if (res.res.status === 503) pending.push(res.i);
          else {
            assert.equal(res.res.status, 202, body.detail);
            retried.push({ i: res.i, status: 202, retryAfter: null, body });
          }
        }
      }
      assert.deepEqual(pending, [], 'every refused upload was accepted when sent again');

      // None lost: every accepted job is in the store, queued, with its recording on disk; nothing else is.
      const ids = [...accepted, ...retried].map((a) => a.body.jobId as string);
      assert.equal(new Set(ids).size, 200);
      const rows = await svc.services.store.database.db.selectFrom('jobs').select(['id', 'status', 'audio_path', 'file_name']).execute();
      assert.equal(rows.length, 200);
      assert.deepEqual(new Set(rows.map((r) => r.id)), new Set(ids));
      for (const row of rows) {
        assert.equal(row.status, 'queued');
        assert.ok(await blobExists(svc, row.audio_path!), `${row.file_name} kept`);
      }
      assert.deepEqual(new Set(rows.map((r) => r.file_name)).size, 200);
      assert.deepEqual(tmpFiles(), [], 'no upload left in the temp dir');
      assert.equal(svc.services.uploads.probe.running, 0);
    });

    test('a probe the machine was too busy to finish is a 503 with Retry-After, not a 422', async () => {
      const options = (svc.services.jobs as unknown as { options: { probe: (file: string) => Promise<unknown> } }).options;
      const real = options.probe;
      options.probe = async () => {
        throw new AudioError('timeout', 'ffprobe did not finish within 30 s and was stopped');
      };
      try {
        const res = await upload(wav, 'slow.wav');
        const body = (await res.json()) as Record<string, any>;
        assert.equal(res.status, 503, body.detail);
        assert.ok(Number(res.headers.get('retry-after')) >= 1);
        assert.equal(body.retryable, true);
      } finally {
        options.probe = real;
      }
    });

    test('a FLAC that declares no duration is measured: over the limit 413, under it accepted with its measured length', async () => {
      const long = path.join(dir, 'long.flac');
      const short = path.join(dir, 'short.flac');
      ffmpegToFile(['-f', 'lavfi', '-i', 'sine=frequency=300:duration=20', '-ar', '16000', '-f', 'flac', 'pipe:1'], long);
      ffmpegToFile(['-f', 'lavfi', '-i', 'sine=frequency=300:duration=3', '-ar', '16000', '-f', 'flac', 'pipe:1'], short);
      assert.equal((await probeAudio(long)).durationSeconds, 0, 'precondition: the header declares no duration');

      const refused = await upload(fs.readFileSync(long), 'long.flac');
      const problem = (await refused.json()) as Record<string, any>;
      assert.equal(refused.status, 413, problem.detail);
      assert.equal(problem.reason, 'too_long');
      assert.equal(problem.maxSeconds, MAX_SECONDS);

      const accepted = await upload(fs.readFileSync(short), 'short.flac');
      const job = (await accepted.json()) as Record<string, any>;
      assert.equal(accepted.status, 202, job.detail);
      const row = await svc.services.store.jobs.get(job.jobId);
      assert.ok(row!.audio_seconds! > 2.5 && row!.audio_seconds! < 3.5, `measured ${row!.audio_seconds} s`);
      assert.deepEqual(tmpFiles(), []);

      // The worker's decode stops at the limit too, whatever the header says.
      await assert.rejects(decodeChannels(long, { maxSeconds: MAX_SECONDS }), (error: unknown) => error instanceof AudioError && error.reason === 'too_long');
    });

    test('a zip bomb is refused (413, or 422 when it lies about its sizes) and leaves nothing on disk', async (t) => {
      const zeros = Buffer.alloc(64 * 1024 * 1024);
      const bomb = await zipOf([{ name: 'bomb.wav', content: zeros }]);
      assert.ok(bomb.length < 1024 * 1024, 'the bomb is small');
      const res = await upload(bomb, 'bomb.zip', { isZip: 'true' });
      const body = (await res.json()) as Record<string, any>;
      assert.equal(res.status, 413, body.detail);
      assert.deepEqual(tmpFiles(), []);

      // Entries under the entry cap but over the total cap together: counted on what is unpacked.
      const parts = await zipOf([0, 1, 2].map((i) => ({ name: `part-${i}.wav`, content: Buffer.alloc(4 * 1024 * 1024, i) })));
      const total = await upload(parts, 'parts.zip', { isZip: 'true' });
      const totalBody = (await total.json()) as Record<string, any>;
      assert.equal(total.status, 413, totalBody.detail);
      assert.match(totalBody.detail, /unpacks to more than 8388608 bytes/);
      assert.deepEqual(tmpFiles(), []);

      // A bomb that declares a few bytes is stopped on the bytes it really inflates.
      const liar = await upload(lyingAboutSize(bomb, 1000), 'liar.zip', { isZip: 'true' });
      const liarBody = (await liar.json()) as Record<string, any>;
      assert.ok(liar.status === 413 || liar.status === 422, `${liar.status} ${liarBody.detail}`);
      t.diagnostic(`a zip that lies about its sizes: ${liar.status} ${liarBody.detail}`);
      assert.deepEqual(tmpFiles(), []);
      assert.equal(svc.services.uploads.unzip.running, 0);
    });

    test('a zip entry unpacks to no more than a recording could be, and leaves nothing on disk', async () => {
      // A WAV whose header says it lasts past the limit: refused at its header, not after unpacking it.
      const declaredLong = Buffer.concat([wavHeader(16_000, 1, 5 * 1024 * 1024), Buffer.alloc(5 * 1024 * 1024)]);
      const long = await upload(await zipOf([{ name: 'long.wav', content: declaredLong }]), 'long.zip', { isZip: 'true' });
      const longBody = (await long.json()) as Record<string, any>;
      assert.equal(long.status, 413, longBody.detail);
      assert.equal(longBody.reason, 'too_long');
      assert.match(longBody.detail, /zip entry "long\.wav" is a WAV of 163\.8 s, more than the 5 s allowed/);
      assert.ok(longBody.unpackedBytes <= 1024 * 1024, `unpacked ${longBody.unpackedBytes} bytes before the refusal`);
      assert.deepEqual(tmpFiles(), []);

      // A WAV that declares a sixth of a second and streams megabytes more: stopped past what it declared (and its
      // room for trailing chunks), under what the duration limit would allow at its byte rate (1152044 bytes).
      const overrun = Buffer.concat([wavHeader(48_000, 2, 32_000), Buffer.alloc(5 * 1024 * 1024)]);
      const over = await upload(await zipOf([{ name: 'overrun.wav', content: overrun }]), 'overrun.zip', { isZip: 'true' });
      const overBody = (await over.json()) as Record<string, any>;
      assert.equal(over.status, 413, overBody.detail);
      assert.equal(overBody.reason, 'zip_entry_not_a_recording');
      assert.equal(overBody.limitBytes, 44 + 32_000 + 1024 * 1024);
      assert.deepEqual(tmpFiles(), []);

      // A WAV written while streaming (no size declared): no more than the duration limit at its byte rate.
      const streamed = Buffer.concat([wavHeader(8000, 1, 0xffffffff), Buffer.alloc(5 * 1024 * 1024)]);
      const stream = await upload(await zipOf([{ name: 'streamed.wav', content: streamed }]), 'streamed.zip', { isZip: 'true' });
      const streamBody = (await stream.json()) as Record<string, any>;
      assert.equal(stream.status, 413, streamBody.detail);
      assert.equal(streamBody.reason, 'zip_entry_not_a_recording');
      assert.equal(streamBody.limitBytes, 44 + 16_000 * (MAX_SECONDS + 1));
      assert.deepEqual(tmpFiles(), []);

      // A real recording in a zip is still accepted.
      const good = await upload(await zipOf([{ name: 'three.wav', content: wav }]), 'good.zip', { isZip: 'true' });
      assert.equal(good.status, 202, await good.text());
    });

    test('zips past the unpacking cap are answered 503 + Retry-After, and accepted once a turn is free', async () => {
      const zip = await zipOf([{ name: 'one.wav', content: wav }]);
      // Every unpacking turn taken (SCRUBLINE_UNZIP_CONCURRENCY=1), held until released.
      let release!: () => void;
      const holding = svc.services.uploads.unzip.run(() => new Promise<void>((resolve) => (release = resolve)));
      try {
        const busy = await upload(zip, 'batch.zip', { isZip: 'true' });
        const body = (await busy.json()) as Record<string, any>;
        assert.equal(busy.status, 503, body.detail);
        assert.ok(Number(busy.headers.get('retry-after')) >= 1);
        assert.equal(body.retryable, true);
        assert.deepEqual(tmpFiles(), [], 'the refused upload is removed');
      } finally {
        release();
        await holding;
      }
      const again = await upload(zip, 'batch.zip', { isZip: 'true' });
      assert.equal(again.status, 202, ((await again.json()) as Record<string, any>).detail);
      assert.deepEqual(tmpFiles(), []);
    });
  });
}

/** Runs ffmpeg writing to stdout (a pipe, so it cannot seek back) and saves what it wrote. */
function ffmpegToFile(args: string[], file: string): void {
  fs.writeFileSync(file, execFileSync('ffmpeg', ['-v', 'error', ...args], { maxBuffer: 64 * 1024 * 1024 }));
}
