// Loudness per party over time (issue 35): a stereo recording of tones of known amplitude on each channel gives
// exactly the levels worked out by hand, measured off the event loop; a job that asks for analytics reports
// them per party (agent left, caller right) in analytics.loudness.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { channelLoudness, loudnessOf, MAX_BUCKETS } from '../../src/audio/loudness.js';
import { measureLoudness } from '../../src/audio/measureLoudness.js';
import { ffmpeg, tempDir } from '../helpers/audio.js';
import { json, startTestService, type TestService } from '../helpers/harness.js';
import { transcribeAndWait } from '../helpers/jobs.js';

// 8 kHz (the rate loudness is measured at: no resampling), 3 s, a 500 Hz sine (16 samples a period, 500 periods
// a second: each 1 s bucket holds whole periods, so its RMS is amplitude/√2 exactly).
//   left  (agent):  amplitude 0.5 for 0-2 s, 0.2 for 2-3 s → buckets 20·log10(0.5/√2) = -9.03, -9.03, 20·log10(0.2/√2) = -16.99
//   right (caller): silence 0-1 s, amplitude 0.1 for 1-3 s → null, -23.01, -23.01
// Whole-channel RMS: left √((0.125·2 + 0.02)/3) = 0.3 → -10.46; right √(0.005·2/3) → -24.77. Peaks 0.5 → -6.02, 0.1 → -20.00.
const EXPRESSION = 'if(lt(t,2),0.5,0.2)*sin(2*PI*500*t)|if(lt(t,1),0,0.1)*sin(2*PI*500*t)';
const LEFT = { dbfs: [-9, -9, -17], averageDbfs: -10.5, peakDbfs: -6 };
const RIGHT = { dbfs: [null, -23, -23], averageDbfs: -24.8, peakDbfs: -20 };

describe('loudness per channel', () => {
  let file: string;
  before(() => {
    file = path.join(tempDir(), 'tones.wav');
    ffmpeg(['-f', 'lavfi', '-i', `aevalsrc='${EXPRESSION}':s=8000:d=3:c=stereo`, '-c:a', 'pcm_s16le', file]);
  });

  test('a stereo recording of known tones: every level as worked out by hand', async () => {
    const got = await measureLoudness(file);
    assert.deepEqual(
      got.map(({ channel, bucketSeconds, dbfs, averageDbfs, peakDbfs }) => ({ channel, bucketSeconds, dbfs, averageDbfs, peakDbfs })),
      [
        { channel: 0, bucketSeconds: 1, ...LEFT },
        { channel: 1, bucketSeconds: 1, ...RIGHT },
      ],
    );
  });

  test('buckets: the last is what is left; a long call gets longer buckets, at most MAX_BUCKETS', () => {
    // 2.5 s at 4 Hz of full-scale square wave: 0 dBFS, the last bucket half a second of it.
    const square = Int16Array.from({ length: 10 }, (_, i) => (i % 2 ? -32768 : 32767));
    const l = channelLoudness(square, 0, 4, 1);
    assert.deepEqual(l.dbfs, [0, 0, 0]);
    const long = loudnessOf([new Int16Array(MAX_BUCKETS * 2 + 1)], 1);
    assert.equal(long[0].bucketSeconds, 3);
    assert.equal(long[0].dbfs.length, Math.ceil((MAX_BUCKETS * 2 + 1) / 3));
    assert.ok(long[0].dbfs.every((d) => d === null), 'digital silence has no level');
    assert.equal(long[0].averageDbfs, null);
  });
});

describe('a job reports loudness per party', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService('sqlite');
  });
  after(() => svc.close());

  test('analytics.loudness: the agent on the left channel, the caller on the right, levels as by hand', async () => {
    const file = path.join(tempDir(), 'tones-job.wav');
    ffmpeg(['-f', 'lavfi', '-i', `aevalsrc='${EXPRESSION}':s=8000:d=3:c=stereo`, '-c:a', 'pcm_s16le', file]);
    const job = await transcribeAndWait(svc, file, { query: '&analytics=true' });
    const res = await svc.request({ method: 'GET', url: `/asr/jobs/${job.jobId}` });
    assert.equal(res.statusCode, 200, res.body);
    const loudness = json(res).analytics?.loudness as Record<string, unknown>[] | undefined;
    assert.ok(loudness, res.body.slice(0, 2000));
    assert.deepEqual(
      loudness.map(({ channel, role, bucket_seconds, dbfs, average_dbfs, peak_dbfs }) => ({ channel, role, bucket_seconds, dbfs, average_dbfs, peak_dbfs })),
      [
        { channel: 0, role: 'agent', bucket_seconds: 1, dbfs: LEFT.dbfs, average_dbfs: LEFT.averageDbfs, peak_dbfs: LEFT.peakDbfs },
        { channel: 1, role: 'caller', bucket_seconds: 1, dbfs: RIGHT.dbfs, average_dbfs: RIGHT.averageDbfs, peak_dbfs: RIGHT.peakDbfs },
      ],
    );
  });
});
