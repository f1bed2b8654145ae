// Any audio ffmpeg reads → 16-bit PCM per channel at the engine's sample rate. ffmpeg decodes and resamples
// (each channel on its own; 8 kHz telephone audio is upsampled to 16 kHz, which recognized better than the 8 kHz
// front end, see STACK.md) and writes interleaved s16le to a pipe; the channels are split here as the bytes
// arrive, into arrays sized from the probed duration, so a long recording is held once, not twice.
// A WAV already at the wanted rate in 16/8-bit PCM, mu-law or A-law is read directly (no ffmpeg start): the same
// samples ffmpeg gives (test/audio/decode.test.ts), through the same channel split.
import fs from 'node:fs/promises';
import { AudioError } from './errors.js';
import { ALAW_TO_LINEAR, MULAW_TO_LINEAR } from './g711.js';
import { readWavLayout, type WavLayout } from './wavLayout.js';
import { DEFAULT_PROBE_TIMEOUT_MS, ffmpegProgram, firstError, probeAudio, runTool, tooLong, type AudioProbe } from './probe.js';

export interface DecodeOptions {
  /** Output sample rate in Hz (default 16000, what the PocketSphinx model wants). */
  sampleRate?: number;
  /** Refuse audio longer than this many seconds (reason `too_long`); checked before and while decoding. */
  maxSeconds?: number;
  /** Kill ffmpeg after this long; default 60 s plus 0.25 s per second of audio. */
  timeoutMs?: number;
  /** Decode what a truncated file holds instead of refusing it. */
  acceptTruncated?: boolean;
  /** A probe already made of this file (skips a second ffprobe). */
  probe?: AudioProbe;
  /** Kill ffmpeg when this aborts (the job's run lost its job). */
  signal?: AbortSignal;
}

export interface DecodedAudio {
  sampleRate: number;
  /** One array of samples per source channel, in channel order. */
  channels: Int16Array[];
  /** Seconds of audio decoded. */
  durationSeconds: number;
  /** What the source file is. */
  source: AudioProbe;
}

export const ENGINE_SAMPLE_RATE = 16_000;

export async function decodeChannels(path: string, options: DecodeOptions = {}): Promise<DecodedAudio> {
  const sampleRate = options.sampleRate ?? ENGINE_SAMPLE_RATE;
  const probe = options.probe ?? (await probeAudio(path, { maxSeconds: options.maxSeconds, signal: options.signal }));
  if (options.maxSeconds !== undefined && probe.durationSeconds > options.maxSeconds) {
    throw tooLong(probe.durationSeconds, options.maxSeconds);
  }
  const nch = probe.channels;
  // A stream that declares no duration may run to the limit: its time is the limit's.
  const timeoutMs = options.timeoutMs ?? 60_000 + (probe.durationSeconds || options.maxSeconds || 0) * 250;
  // Capacity from the declared duration (plus a second); grows when a container under-declared.
  const maxSamples = options.maxSeconds !== undefined ? Math.ceil(options.maxSeconds * sampleRate) : Infinity;
  const sink = new ChannelSink(nch, Math.ceil((probe.durationSeconds + 1) * sampleRate), maxSamples + sampleRate);

  const layout = probe.container === 'wav' && probe.sampleRate === sampleRate ? await readWavLayout(path) : undefined;
  if (layout && layout.sampleRate === sampleRate && layout.channels === nch) {
    await readWavSamples(path, layout, sink, options.signal);
    if (sink.length === 0) throw new AudioError('empty', 'The audio holds no samples (0 s of sound)');
    if (options.maxSeconds !== undefined && sink.length / sampleRate > options.maxSeconds) throw tooLong(sink.length / sampleRate, options.maxSeconds);
    return { sampleRate, channels: sink.finish(), durationSeconds: sink.length / sampleRate, source: probe };
  }

  const args = ['-nostdin', '-hide_banner', '-v', 'error', '-i', path, '-map', `0:${probe.streamIndex}`, '-vn', '-sn', '-dn'];
  // Read one second past the limit, enough to know a stream that declared no duration is too long.
  if (options.maxSeconds !== undefined) args.push('-t', String(options.maxSeconds + 1));
  args.push('-ac', String(nch), '-ar', String(sampleRate), '-acodec', 'pcm_s16le', '-f', 's16le', 'pipe:1');

  const result = await runTool(ffmpegProgram(), args, {
    timeoutMs: Math.max(timeoutMs, DEFAULT_PROBE_TIMEOUT_MS),
    signal: options.signal,
    onStdout: (chunk) => {
      sink.write(chunk);
      if (sink.length > maxSamples && options.maxSeconds !== undefined) {
        throw tooLong(sink.length / sampleRate, options.maxSeconds);
      }
    },
  });
  const decodedSeconds = sink.length / sampleRate;
  if (result.code !== 0) {
    if (sink.length === 0) {
      throw new AudioError('not_audio', `The audio could not be decoded (${firstError(result.stderr, path) || `ffmpeg exit ${result.code}`})`);
    }
    if (!options.acceptTruncated) {
      throw new AudioError('truncated', `Decoding stopped after ${decodedSeconds.toFixed(1)} s: ${firstError(result.stderr, path)}`);
    }
  }
  if (sink.length === 0) throw new AudioError('empty', 'The audio holds no samples (0 s of sound)');
  // Data that ends mid-way: clearly less audio than the container declares (a FLAC or MP3 frame count, an Ogg
  // end position), or than ffmpeg's estimate when decoding also reported errors.
  const declared = probe.durationSeconds;
  const shortfall = declared - decodedSeconds;
  const trusted = !probe.durationEstimated || result.stderr.trim() !== '';
  if (!options.acceptTruncated && declared > 0 && trusted && shortfall > Math.max(0.5, 0.05 * declared)) {
    const why = firstError(result.stderr, path);
    throw new AudioError(
      'truncated',
      `The file is cut short: it declares ${declared.toFixed(1)} s but only ${decodedSeconds.toFixed(1)} s could be decoded${why ? ` (${why})` : ''}`,
      { declaredSeconds: Number(declared.toFixed(3)), decodedSeconds: Number(decodedSeconds.toFixed(3)) },
    );
  }
  return { sampleRate, channels: sink.finish(), durationSeconds: decodedSeconds, source: probe };
}

/** The data chunk of a WAV as s16le into `sink`, a MiB at a time (G.711 by table, 8-bit as ffmpeg widens it). */
async function readWavSamples(path: string, layout: WavLayout, sink: ChannelSink, signal?: AbortSignal): Promise<void> {
  const handle = await fs.open(path, 'r');
  try {
    const chunk = Buffer.alloc(Math.max(layout.blockAlign, (1 << 20) - ((1 << 20) % layout.blockAlign)));
    for (let done = 0; done < layout.dataBytes; ) {
      signal?.throwIfAborted();
      const { bytesRead } = await handle.read(chunk, 0, Math.min(chunk.length, layout.dataBytes - done), layout.dataOffset + done);
      if (bytesRead === 0) break;
      done += bytesRead;
      const bytes = chunk.subarray(0, bytesRead);
      if (layout.format === 'pcm_s16le') {
        sink.write(bytes);
        continue;
      }
      const out = new Int16Array(bytesRead);
      if (layout.format === 'pcm_u8') for (let i = 0; i < bytesRead; i++) out[i] = (bytes[i] - 128) << 8;
      else {
        const table = layout.format === 'pcm_mulaw' ? MULAW_TO_LINEAR : ALAW_TO_LINEAR;
        for (let i = 0; i < bytesRead; i++) out[i] = table[bytes[i]];
      }
      sink.write(Buffer.from(out.buffer));
    }
  } finally {
    await handle.close();
  }
}

/** Splits interleaved s16le bytes into per-channel arrays as they arrive (any chunk boundaries). */
class ChannelSink {
  private arrays: Int16Array[];
  /** Samples per channel written. */
  length = 0;
  private carry = Buffer.alloc(0);
  private readonly frameBytes: number;

  constructor(
    private readonly nch: number,
    capacity: number,
    /** Never reserve past this (the limit plus a second): growth stops where decoding is refused anyway. */
    private readonly maxCapacity = Infinity,
  ) {
    this.arrays = Array.from({ length: nch }, () => new Int16Array(Math.max(capacity, 1024)));
    this.frameBytes = 2 * nch;
  }

  write(chunk: Buffer): void {
    let data = chunk;
    if (this.carry.length > 0) {
      data = Buffer.concat([this.carry, chunk]);
      this.carry = Buffer.alloc(0);
    }
    const frames = Math.floor(data.length / this.frameBytes);
    const rest = data.length - frames * this.frameBytes;
    if (rest > 0) this.carry = Buffer.from(data.subarray(data.length - rest));
    if (frames === 0) return;
    this.ensure(this.length + frames);
    const nch = this.nch;
    const bytes = frames * this.frameBytes;
    // s16le read through an Int16Array view (little-endian hosts; x86-64 and arm64 are); copied when unaligned.
    const view =
      data.byteOffset % 2 === 0
        ? new Int16Array(data.buffer, data.byteOffset, bytes / 2)
        : new Int16Array(new Uint8Array(data.subarray(0, bytes)).buffer);
    if (nch === 1) {
      this.arrays[0].set(view, this.length);
    } else {
      for (let c = 0; c < nch; c++) {
        const out = this.arrays[c];
        for (let i = 0, j = c, at = this.length; i < frames; i++, j += nch, at++) out[at] = view[j];
      }
    }
    this.length += frames;
  }

  private ensure(n: number): void {
    if (n <= this.arrays[0].length) return;
    const size = Math.max(n, Math.min(Math.ceil(this.arrays[0].length * 1.5), this.maxCapacity));
    this.arrays = this.arrays.map((a) => {
      const grown = new Int16Array(size);
      grown.set(a.subarray(0, this.length));
      return grown;
    });
  }

  /** The arrays trimmed to what was written (a view when close to full, a copy when much was over-reserved). */
  finish(): Int16Array[] {
    return this.arrays.map((a) => (this.length > 0.9 * a.length ? a.subarray(0, this.length) : a.slice(0, this.length)));
  }
}
