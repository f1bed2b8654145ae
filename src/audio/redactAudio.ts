// Audio redaction: each redacted span (padded, and merged with its neighbours closer than scrubmindist) is
// replaced by a tone or by silence on the channel that spoke it. Duration, sample rate, channels and container
// are kept, and the audio outside the spans is left as it was (PCM passes through sample for sample).
//
// WAV files of 16/8-bit PCM, mu-law or A-law (what contact-center recorders write) take the short way: their
// samples are read with a table lookup and the redacted copy is the file copied with the spans' bytes rewritten
// (wavRedaction.ts), at the speed of a file copy. Everything else is decoded and encoded again by ffmpeg.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { type AudioProbe, ffmpegProgram, probeAudio } from './probe.js';
import { readWavLayout, type WavLayout } from './wavLayout.js';
import { readWavSamples, writeWavRedacted } from './wavRedaction.js';

export interface AudioSpan {
  channel: number;
  start: number;
  end: number;
}

export interface AudioRedactionOptions {
  /** Seconds added before and after each span (V-Blaze's uttpadding is for speech; this is for safety). */
  padding?: number;
  /** Spans of one channel closer than this (s) merge: scrubmindist. */
  minDistance?: number;
  mode?: 'tone' | 'silence';
  toneHz?: number;
  timeoutMs?: number;
}

/** Padded, clipped and merged spans per channel, in order. */
export function mergeSpans(spans: readonly AudioSpan[], channels: number, duration: number, padding: number, minDistance: number): AudioSpan[][] {
  const round = (t: number) => Math.round(t * 1e6) / 1e6;
  // A span on a channel the recording does not have (a transcript and a recording that disagree) is not dropped:
  // where it belongs is unknown, so its time is masked on every channel (more, never less).
  const known = (c: number) => Number.isInteger(c) && c >= 0 && c < channels;
  return Array.from({ length: channels }, (_, channel) => {
    const mine = spans
      .filter((s) => s.channel === channel || !known(s.channel))
      .map((s) => ({ channel, start: round(Math.max(0, s.start - padding)), end: round(Math.min(duration, s.end + padding)) }))
      .filter((s) => s.end > s.start)
      .sort((a, b) => a.start - b.start);
    const merged: AudioSpan[] = [];
    for (const span of mine) {
      const last = merged[merged.length - 1];
      if (last && span.start - last.end < minDistance) last.end = Math.max(last.end, span.end);
      else merged.push({ ...span });
    }
    return merged;
  });
}

const ENCODERS: Record<string, string[]> = {
  pcm_s16le: ['-c:a', 'pcm_s16le'],
  pcm_s24le: ['-c:a', 'pcm_s24le'],
  pcm_s32le: ['-c:a', 'pcm_s32le'],
  pcm_u8: ['-c:a', 'pcm_u8'],
  pcm_f32le: ['-c:a', 'pcm_f32le'],
  pcm_mulaw: ['-c:a', 'pcm_mulaw'],
  pcm_alaw: ['-c:a', 'pcm_alaw'],
  mp3: ['-c:a', 'libmp3lame', '-q:a', '2'],
  flac: ['-c:a', 'flac'],
  opus: ['-c:a', 'libopus'],
  vorbis: ['-c:a', 'libvorbis'],
  aac: ['-c:a', 'aac'],
};

/** Lossy codecs re-encoded at the source's bit rate: left to the encoder's default, a 16 kb/s call grows ~4x. */
const LOSSY = new Set(['mp3', 'opus', 'vorbis', 'aac']);

/**
 * `-b:a` at the source's mean bit rate (file size over duration: container overhead included, a few percent) for
 * lossy codecs; nothing for PCM/FLAC or when the duration is unknown. Clamped to what the encoders accept.
 */
export function bitRateArgs(probe: Pick<AudioProbe, 'codec' | 'sizeBytes' | 'durationSeconds'>): string[] {
  if (!LOSSY.has(probe.codec) || !(probe.durationSeconds > 0) || !(probe.sizeBytes > 0)) return [];
  const bps = Math.round((probe.sizeBytes * 8) / probe.durationSeconds);
  const clamped = Math.min(320_000, Math.max(probe.codec === 'opus' ? 6_000 : 8_000, bps));
  return ['-b:a', String(clamped)];
}

/** Run ffmpeg with `input` on stdin; resolves with stdout. */
function ffmpegPipe(args: string[], input: Buffer | undefined, timeoutMs: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(ffmpegProgram(), ['-nostdin', '-hide_banner', '-v', 'error', ...args], { stdio: [input ? 'pipe' : 'ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stdout!.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk).slice(-4000)));
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(Buffer.concat(out));
      else reject(new Error(`ffmpeg failed (${code}): ${stderr.trim().split('\n').slice(-2).join(' ')}`));
    });
    if (input) {
      child.stdin!.on('error', () => {}); // ffmpeg exiting early reports through 'close'
      child.stdin!.end(input);
    }
  });
}

/** A recording decoded for redaction: interleaved 16-bit PCM at the source's own rate and channel count. */
export interface RedactionPcm {
  probe: AudioProbe;
  sampleRate: number;
  channels: number;
  /** Samples per channel. */
  frames: number;
  /** Interleaved samples (a view of `bytes`). */
  samples: Int16Array;
  bytes: Buffer;
  /** Set when the source is a WAV that is edited in place: the file and where its samples lie. */
  wav?: { file: string; layout: WavLayout };
}

/** Decode `input` to interleaved s16le at its own rate and channels (what the redacted copy is edited on). */
export async function decodeForRedaction(input: string, options: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<RedactionPcm> {
  const probe = await probeAudio(input, { signal: options.signal });
  const channels = probe.channels;
  const rate = probe.sampleRate;
  const layout = probe.container === 'wav' ? await readWavLayout(input) : undefined;
  if (layout && layout.channels === channels && layout.sampleRate === rate) {
    const samples = await readWavSamples(input, layout);
    options.signal?.throwIfAborted();
    const bytes = Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength);
    return { probe, sampleRate: rate, channels, frames: Math.floor(samples.length / channels), samples, bytes, wav: { file: input, layout } };
  }
  const raw = await ffmpegPipe(['-i', input, '-f', 's16le', '-acodec', 'pcm_s16le', '-ac', String(channels), '-ar', String(rate), '-'], undefined, options.timeoutMs ?? 600_000);
  // An Int16Array view needs an even byte offset; copy in the (unusual) case ffmpeg's buffer has an odd one.
  const bytes = raw.byteOffset % 2 === 0 ? raw : Buffer.from(raw);
  const samples = new Int16Array(bytes.buffer, bytes.byteOffset, Math.floor(bytes.length / 2));
  return { probe, sampleRate: rate, channels, frames: Math.floor(samples.length / channels), samples, bytes };
}

/** The frames each merged span covers, and the sample value that replaces frame i (tone or silence). */
function spanSamples(merged: AudioSpan[][], rate: number, frames: number, options: AudioRedactionOptions) {
  const toneHz = options.toneHz ?? 1000;
  const sampleAt = (i: number) => (options.mode === 'silence' ? 0 : Math.round(8000 * Math.sin((2 * Math.PI * toneHz * i) / rate)));
  const frameSpans = merged.flatMap((spansOfChannel, channel) =>
    spansOfChannel.map((span) => ({ channel, from: Math.max(0, Math.floor(span.start * rate)), to: Math.min(frames, Math.ceil(span.end * rate)) })),
  );
  return { sampleAt, frameSpans };
}

/**
 * Write the redacted copy of a decoded recording to `output` with the source's codec, rate and channel count
 * (an editable WAV: its bytes copied and the spans' rewritten; anything else: the decoded samples edited and
 * encoded again); answers the spans used. Samples are edited exactly (not frame by frame, as ffmpeg's timeline
 * filters would).
 */
export async function writeRedacted(pcm: RedactionPcm, output: string, spans: readonly AudioSpan[], options: AudioRedactionOptions = {}): Promise<AudioSpan[][]> {
  const timeoutMs = options.timeoutMs ?? 600_000;
  const { channels, sampleRate: rate, frames, samples } = pcm;
  const duration = frames / rate;
  const merged = mergeSpans(spans, channels, duration, options.padding ?? 0.05, options.minDistance ?? 0.3);
  const { sampleAt, frameSpans } = spanSamples(merged, rate, frames, options);
  // A WAV copy in the source's own format: the source file with the spans' bytes rewritten.
  if (pcm.wav && path.extname(output).toLowerCase() === '.wav') {
    await writeWavRedacted(pcm.wav.file, output, pcm.wav.layout, frameSpans, sampleAt);
    return merged;
  }
  for (const { channel, from, to } of frameSpans) {
    for (let i = from; i < to; i++) samples[i * channels + channel] = sampleAt(i);
  }
  const bitRate = bitRateArgs(pcm.probe);
  // A bit rate replaces the encoder's quality setting (lame's -q:a would make it VBR and ignore -b:a).
  const encoder = ENCODERS[pcm.probe.codec] ?? [];
  const codec = bitRate.length > 0 ? [...encoder.slice(0, 2), ...bitRate] : encoder;
  await ffmpegPipe(['-f', 's16le', '-ar', String(rate), '-ac', String(channels), '-i', 'pipe:0', ...codec, '-ar', String(rate), '-y', output], pcm.bytes, timeoutMs);
  return merged;
}

/**
 * Write the redacted copy of `input` to `output` (same container, by its extension); answers the spans used.
 * Samples are edited exactly, then encoded again with the source's codec, rate and channel count.
 */
export async function redactAudio(input: string, output: string, spans: readonly AudioSpan[], options: AudioRedactionOptions = {}): Promise<AudioSpan[][]> {
  // An editable WAV needs no decode at all: the file is copied and the spans' bytes rewritten.
  const layout = path.extname(output).toLowerCase() === '.wav' ? await readWavLayout(input) : undefined;
  if (layout) {
    const frames = layout.dataBytes / layout.blockAlign;
    const merged = mergeSpans(spans, layout.channels, frames / layout.sampleRate, options.padding ?? 0.05, options.minDistance ?? 0.3);
    const { sampleAt, frameSpans } = spanSamples(merged, layout.sampleRate, frames, options);
    await writeWavRedacted(input, output, layout, frameSpans, sampleAt);
    return merged;
  }
  const pcm = await decodeForRedaction(input, { timeoutMs: options.timeoutMs });
  return writeRedacted(pcm, output, spans, options);
}
