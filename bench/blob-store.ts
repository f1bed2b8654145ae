// A one-hour recording through the blob store: the S3 store (s3rver on loopback, in a process of its own, through
// @aws-sdk/client-s3) against the local store (the data directory), in the same run. Each store does what a job
// does with a recording: the upload is stored (putFile, as an accepted upload is), staged to a temporary file
// for a run (stageBlob), a player's byte range is read (get with a range), and the job's folder deleted. The
// figures: MB/s of each step and the peak RSS of this process during it (sampled every 20 ms): a store that
// buffered the recording would show its size there.
//
//   node --import tsx bench/blob-store.ts
//   BENCH_AUDIO_SECONDS=600 node --import tsx bench/blob-store.ts   (a shorter recording)
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { type BlobStore, LocalBlobStore, S3BlobStore, s3Client, stageBlob } from '../src/store/blobs/index.js';
import { ffmpeg } from '../test/helpers/audio.js';

const SECONDS = Math.max(1, Number(process.env.BENCH_AUDIO_SECONDS ?? 3600));
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scrubline-bench-blobs-'));

/** Peak RSS (MB) while `work` runs, with its duration. */
async function measured<T>(work: () => Promise<T>): Promise<{ seconds: number; peakRssMb: number; result: T }> {
  global.gc?.();
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const started = process.hrtime.bigint();
  try {
    const result = await work();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { seconds: Number(process.hrtime.bigint() - started) / 1e9, peakRssMb: peak / 2 ** 20, result };
  } finally {
    clearInterval(timer);
  }
}

async function startS3rver(): Promise<{ child: ChildProcess; endpoint: string }> {
  const script = `
    const S3rver = require('s3rver');
    new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: ${JSON.stringify(path.join(dir, 's3rver'))}, allowMismatchedSignatures: true })
      .run().then(({ port }) => console.log('PORT ' + port));`;
  fs.mkdirSync(path.join(dir, 's3rver'));
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c) => {
      out += c;
      const m = /PORT (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.on('exit', (code) => reject(new Error(`s3rver exited ${code}`)));
  });
  return { child, endpoint: `http://127.0.0.1:${port}` };
}

async function run(name: string, store: BlobStore, recording: string) {
  const bytes = fs.statSync(recording).size;
  const mb = bytes / 2 ** 20;
  const upload = path.join(dir, `${name}.upload`);
  fs.copyFileSync(recording, upload);
  const key = `uploads/${name}/call.wav`;
  const put = await measured(() => store.putFile(key, upload, { move: true }));
  const stage = await measured(async () => {
    const staged = await stageBlob(store, key, path.join(dir, 'staging'));
    // A run reads its file once (as ffmpeg would): read it through.
    for await (const _ of fs.createReadStream(staged.path, { highWaterMark: 1 << 20 })) void _;
    staged.dispose();
  });
  const range = await measured(async () => {
    let got = 0;
    for await (const chunk of await store.get(key, { start: Math.floor(bytes / 2), end: Math.floor(bytes / 2) + 1_048_575 })) got += (chunk as Buffer).length;
    return got;
  });
  const remove = await measured(() => store.deletePrefix(`uploads/${name}/`));
  const row = (step: string, m: { seconds: number; peakRssMb: number }, size = mb) => ({ store: name, step, seconds: +m.seconds.toFixed(2), mbPerSecond: +(size / m.seconds).toFixed(1), peakRssMb: +m.peakRssMb.toFixed(0) });
  return [row('put (stored upload)', put), row('stage (run temp file)', stage), row('ranged get (1 MiB)', range, 1), row('delete folder', remove, 0)];
}

const recording = path.join(dir, 'hour.wav');
// Telephone audio: 8 kHz, 16-bit, stereo (agent and caller), speech-like noise.
ffmpeg(['-f', 'lavfi', '-i', `anoisesrc=color=pink:duration=${SECONDS}:sample_rate=8000:amplitude=0.2`, '-ac', '2', '-ar', '8000', '-c:a', 'pcm_s16le', recording]);
const sizeMb = fs.statSync(recording).size / 2 ** 20;
console.log(`recording: ${SECONDS} s, ${sizeMb.toFixed(1)} MB (8 kHz 16-bit stereo WAV); baseline RSS ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MB`);
const s3 = await startS3rver();
try {
  const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'bench-secret' };
  const client = s3Client({ endpoint: s3.endpoint, region: 'us-east-1', forcePathStyle: true, credentials });
  await client.send(new CreateBucketCommand({ Bucket: 'bench' }));
  client.destroy();
  const rows = [
    ...(await run('local', new LocalBlobStore(path.join(dir, 'data')), recording)),
    ...(await run('s3', new S3BlobStore({ endpoint: s3.endpoint, region: 'us-east-1', bucket: 'bench', prefix: '', forcePathStyle: true, credentials }), recording)),
  ];
  console.table(rows);
  fs.mkdirSync('bench/results', { recursive: true });
  fs.writeFileSync(`bench/results/blob-store-${Date.now()}.json`, JSON.stringify({ seconds: SECONDS, sizeMb, rows }, null, 2));
} finally {
  s3.child.kill();
  fs.rmSync(dir, { recursive: true, force: true });
}
