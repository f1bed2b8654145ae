// Audio redaction speed on one hour of stereo 8 kHz telephone audio with 200 redacted spans, against
// `ffmpeg -c copy` of the same file in the same run (what a plain copy costs), and against the ffmpeg path
// (decode to PCM, edit, encode again: what every recording went through before WAV files were edited in place,
// and what MP3/Opus/FLAC still go through). Medians of BENCH_RUNS (default 5).
//
//   npx tsx bench/audio-redaction.ts      (BENCH_AUDIO_SECONDS=600 for a shorter run)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type AudioSpan, decodeForRedaction, redactAudio, writeRedacted } from '../src/audio/redactAudio.js';

const seconds = Number(process.env.BENCH_AUDIO_SECONDS ?? 3600);
const runs = Number(process.env.BENCH_RUNS ?? 5);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scrubline-bench-audio-redaction-'));
const ffmpeg = (args: string[]) => execFileSync('ffmpeg', ['-hide_banner', '-v', 'error', '-y', ...args], { maxBuffer: 1 << 30 });
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
async function timed(fn: () => unknown | Promise<unknown>): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    samples.push((performance.now() - t) / 1000);
  }
  return median(samples);
}

// 200 spans of 0.5-2 s spread over the hour, alternating channels.
const spans: AudioSpan[] = Array.from({ length: 200 }, (_, i) => {
  const start = (i + 0.5) * (seconds / 200);
  return { channel: i % 2, start, end: start + 0.5 + (i % 4) * 0.5 };
});

console.log(`Audio redaction benchmark (${os.cpus()[0]?.model ?? 'cpu'}, ${os.availableParallelism()} cores, node ${process.version}); medians of ${runs}`);
for (const codec of ['pcm_mulaw', 'pcm_alaw', 'pcm_s16le']) {
  const source = path.join(dir, `hour-${codec}.wav`);
  ffmpeg(['-f', 'lavfi', '-i', `anoisesrc=color=pink:sample_rate=8000:duration=${seconds}:amplitude=0.1`, '-f', 'lavfi', '-i',
    `sine=frequency=300:sample_rate=8000:duration=${seconds}`, '-filter_complex', '[0:a][1:a]join=inputs=2:channel_layout=stereo[a]', '-map', '[a]', '-c:a', codec, source]);
  const out = path.join(dir, `out-${codec}.wav`);
  const copy = await timed(() => ffmpeg(['-i', source, '-c', 'copy', out]));
  const inPlace = await timed(() => redactAudio(source, out, spans, { mode: 'tone' }));
  // What a job does: the samples read once (keypad tones are looked for on them), then the copy written.
  const jobPath = await timed(async () => writeRedacted(await decodeForRedaction(source), out, spans, { mode: 'tone' }));
  // The ffmpeg path: ffmpeg decodes the whole file to PCM, the spans are edited, ffmpeg encodes it all again.
  const viaFfmpeg = await timed(async () => {
    const raw = ffmpeg(['-i', source, '-f', 's16le', '-acodec', 'pcm_s16le', '-']);
    const pcm = await decodeForRedaction(source);
    pcm.samples.set(new Int16Array(raw.buffer, raw.byteOffset, raw.length / 2));
    await writeRedacted({ ...pcm, wav: undefined }, out, spans, { mode: 'tone' });
  });
  const mb = (fs.statSync(source).size / 1e6).toFixed(1);
  console.log(`${codec}, ${seconds} s stereo 8 kHz (${mb} MB), ${spans.length} spans:`);
  console.log(`  ffmpeg -c copy           ${copy.toFixed(3)} s`);
  console.log(`  redactAudio, in place    ${inPlace.toFixed(3)} s  (x${(inPlace / copy).toFixed(2)} the copy)`);
  console.log(`  read samples + in place  ${jobPath.toFixed(3)} s  (x${(jobPath / copy).toFixed(2)} the copy; a job's path, keypad tones need the samples)`);
  console.log(`  decode + re-encode       ${viaFfmpeg.toFixed(3)} s  (x${(viaFfmpeg / copy).toFixed(2)} the copy)`);
  fs.rmSync(source, { force: true });
}
fs.rmSync(dir, { recursive: true, force: true });
