// A live channel ahead of another waits in a SampleQueue (src/stream/sampleQueue.ts): a few seconds in memory, the
// rest in a file of the staging folder read back in order; the file goes once drained and when the stream ends.
// End to end: a Twilio two-track call whose outbound track never sends holds the inbound one in a file, not in
// memory, and its recording still becomes the job, both channels, the silent one padded.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import WebSocket from 'ws';
import { SampleQueue } from '../../src/stream/sampleQueue.js';
import { stagingDir } from '../../src/jobs/stagingDir.js';
import { installedModels } from '../../src/engine/models.js';
import { hasTool, tempDir } from '../helpers/audio.js';
import { dialects, startTestService } from '../helpers/harness.js';
import { until } from '../helpers/poll.js';
import { required } from '../helpers/require.js';

const ramp = (from: number, n: number) => Int16Array.from({ length: n }, (_, i) => (from + i) % 30_000);

test('samples come out in order across memory and the file; memory stays bounded; the file goes when drained or closed', () => {
  const dir = tempDir('scrubline-queue-');
  try {
    const queue = new SampleQueue(dir, 1000);
    let pushed = 0;
    for (let i = 0; i < 50; i++) {
      queue.push(ramp(pushed, 160));
      pushed += 160;
      assert.ok(queue.inMemory <= 1000, `memory holds ${queue.inMemory}`);
    }
    assert.equal(queue.length, 8000);
    assert.ok(queue.spillPath && fs.existsSync(queue.spillPath), 'past the bound the samples wait in a file');
    let taken = 0;
    // Taken in odd amounts while more arrives: every sample once, in order.
    for (const n of [7, 993, 1500, 1, 2500]) {
      const out = queue.take(n);
      assert.deepEqual(Array.from(out), Array.from(ramp(taken, n)));
      taken += n;
      queue.push(ramp(pushed, 160));
      pushed += 160;
    }
    const spill = queue.spillPath;
    const rest = queue.take(1_000_000);
    assert.deepEqual(Array.from(rest), Array.from(ramp(taken, pushed - taken)));
    assert.equal(queue.length, 0);
    assert.ok(!spill || !fs.existsSync(spill), 'a drained file is deleted');
    assert.deepEqual(fs.readdirSync(dir), []);

    const closing = new SampleQueue(dir, 100);
    closing.push(ramp(0, 500));
    assert.equal(fs.readdirSync(dir).length, 1);
    closing.close();
    assert.deepEqual(fs.readdirSync(dir), [], 'closed: the file is deleted');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

const skip = required(!hasTool('ffmpeg') ? 'ffmpeg is needed' : !installedModels().some((m) => m.name === 'en-us:wideband') ? 'the PocketSphinx model is not installed' : false);

test('a Twilio two-track call whose outbound track never sends: the inbound waits in a file, and the job gets the whole call', { skip }, async () => {
  const dialect = (await dialects()).at(-1)!;
  const svc = await startTestService(dialect, { workers: false });
  try {
    const url = (await svc.app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws');
    const staging = stagingDir(svc.database.dataDir);
    const spilled = () => (fs.existsSync(staging) ? fs.readdirSync(staging).filter((f) => f.startsWith('stream-channel-')) : []);
    const socket = new WebSocket(`${url}/asr/stream/twilio`);
    const got: Record<string, any>[] = [];
    const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
    socket.on('message', (data) => got.push(JSON.parse(data.toString())));
    await new Promise((r) => socket.on('open', r));
    socket.send(JSON.stringify({ event: 'start', start: { streamSid: 'MZ2', callSid: 'CA2', tracks: ['inbound', 'outbound'], mediaFormat: { encoding: 'audio/x-mulaw', sampleRate: 8000, channels: 1 } } }));
    await until(() => got.some((m) => m.type === 'started'), 'the Twilio stream to start');
    // 20 s of the inbound track only (mu-law 0xFF: silence), 20 ms a message; the outbound track sends nothing.
    const seconds = 20;
    for (let i = 0; i < seconds * 50; i++) {
      socket.send(JSON.stringify({ event: 'media', media: { track: 'inbound', payload: Buffer.alloc(160, 0xff).toString('base64') } }));
      if (i % 50 === 0) await new Promise((r) => setTimeout(r, 5));
    }
    await until(() => spilled().length === 1, 'the inbound track past 10 s to wait in a file');
    socket.send(JSON.stringify({ event: 'stop', stop: { callSid: 'CA2' } }));
    assert.equal(await closed, 1000);
    const summary = got.at(-1)!;
    assert.equal(summary.type, 'summary');
    assert.equal(summary.audioSeconds, seconds);
    assert.ok(summary.jobId, JSON.stringify(summary));
    const job = await svc.services.store.jobs.get(summary.jobId);
    assert.ok(Math.abs(Number(job!.audio_seconds) - seconds) < 0.1, `the job has ${job!.audio_seconds} s`);
    assert.deepEqual(spilled(), [], 'the file is gone with the stream');
    assert.deepEqual(fs.readdirSync(path.join(svc.database.dataDir, 'tmp')).filter((f) => f.startsWith('stream-')), []);
  } finally {
    await svc.close();
  }
});
