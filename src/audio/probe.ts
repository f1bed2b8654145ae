// What an audio file is, asked of ffprobe (spawned without a shell, killed when it overruns its time), plus a
// look at a WAV file's own header, which is the only way to tell a WAV cut short in transfer from a short one.
// A WAV of 16/8-bit PCM, mu-law or A-law (wavLayout.ts) is described from its header alone: what ffprobe would
// say of it, without a process start (most of a short telephone prompt's cost outside recognition).
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import { AudioError } from './errors.js';
import { readWavLayout } from './wavLayout.js';

export interface AudioProbe {
  /** Duration in seconds as the container declares it (0 when it declares none). */
  durationSeconds: number;
  /** The duration is ffmpeg's guess from the bit rate (MP3 without a frame count), not declared. */
  durationEstimated: boolean;
  sampleRate: number;
  channels: number;
  /** ffmpeg's codec name: pcm_s16le, pcm_mulaw, pcm_alaw, mp3, flac, opus, vorbis, aac, ... */
  codec: string;
  /** ffmpeg's format name: wav, mp3, flac, ogg, mov,mp4,m4a,3gp,3g2,mj2, ... */
  container: string;
  sizeBytes: number;
  /** Index of the audio stream used (the first one). */
  streamIndex: number;
}

export interface ProbeOptions {
  /** Refuse audio longer than this (seconds) with reason `too_long`. */
  maxSeconds?: number;
  /** Kill ffprobe after this long (default 30 s). */
  timeoutMs?: number;
  /** Kill ffprobe when this aborts (the job's run lost its job); rejects with the signal's reason. */
  signal?: AbortSignal;
}

export const DEFAULT_PROBE_TIMEOUT_MS = 30_000;
/** ffprobe/ffmpeg programs: SCRUBLINE_FFPROBE / SCRUBLINE_FFMPEG for installs that keep them elsewhere. */
export const ffprobeProgram = (): string => process.env.SCRUBLINE_FFPROBE || 'ffprobe';
export const ffmpegProgram = (): string => process.env.SCRUBLINE_FFMPEG || 'ffmpeg';

export interface ToolResult {
  code: number | null;
  stdout: Buffer;
  stderr: string;
}

export interface RunToolOptions {
  timeoutMs: number;
  /** Receives stdout as it comes instead of collecting it. */
  onStdout?: (chunk: Buffer) => void;
  /** Stop collecting stderr past this many characters (the start is what explains a failure). */
  maxStderr?: number;
  /** Kill the tool when this aborts; rejects with the signal's reason. */
  signal?: AbortSignal;
}

/**
 * Runs ffprobe/ffmpeg without a shell. Resolves with the exit code and output; rejects with an AudioError
 * `ffmpeg_missing` when the program is not installed and `timeout` when it had to be killed.
 */
export function runTool(program: string, args: string[], options: RunToolOptions): Promise<ToolResult> {
  const maxStderr = options.maxStderr ?? 16_384;
  if (options.signal?.aborted) return Promise.reject(options.signal.reason);
  return new Promise((resolve, reject) => {
    let settled = false;
    const child = spawn(program, args, { stdio: ['ignore', 'pipe', 'pipe'], shell: false });
    const onAbort = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(options.signal!.reason);
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    child.on('close', () => options.signal?.removeEventListener('abort', onAbort));
    const out: Buffer[] = [];
    let stderr = '';
    const timer = setTimeout(() => {
      if (settled) return;
      settled = true;
      child.kill('SIGKILL');
      reject(new AudioError('timeout', `${program} did not finish within ${Math.round(options.timeoutMs / 1000)} s and was stopped`));
    }, options.timeoutMs);
    timer.unref?.();
    child.stdout.on('data', (chunk: Buffer) => {
      if (settled) return;
      if (options.onStdout) {
        try {
          options.onStdout(chunk);
        } catch (err) {
          settled = true;
          clearTimeout(timer);
          child.kill('SIGKILL');
          reject(err);
        }
      } else out.push(chunk);
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < maxStderr) stderr += chunk.slice(0, maxStderr - stderr.length);
    });
    child.on('error', (err: NodeJS.ErrnoException) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err.code === 'ENOENT') {
        reject(new AudioError('ffmpeg_missing', `${program} is not installed (Debian package ffmpeg)`));
      } else reject(err);
    });
    child.on('close', (code) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ code, stdout: Buffer.concat(out), stderr });
    });
  });
}

/** The first lines of a tool's error output, without the file path (which may be a temporary name). */
export function firstError(stderr: string, path: string): string {
  const lines = stderr
    .split('\n')
    .map((l) => l.replaceAll(path, 'input').replace(/\[([\w ,]+) @ 0x[0-9a-f]+\] /g, '$1: ').trim())
    .filter(Boolean);
  return lines.slice(0, 3).join('; ');
}

interface FfprobeStream {
  index: number;
  codec_type?: string;
  codec_name?: string;
  sample_rate?: string;
  channels?: number;
  duration?: string;
}

interface FfprobeOutput {
  streams?: FfprobeStream[];
  format?: { format_name?: string; duration?: string; size?: string };
}

/**
 * What ffprobe said of a file, by the file's identity (device, inode, size, modification time in ns) and the
 * ffprobe run: a job's recording is probed at submit, then again by the worker that recognizes it and by audio
 * redaction — one ffprobe start (0.1-0.4 s) each on a compressed file. A file changed in any way is a new key.
 * Bounded (oldest dropped first); only successful descriptions are kept.
 */
const described = new Map<string, AudioProbe>();
const DESCRIBED_MAX = 512;

function remember(key: string, probe: AudioProbe): void {
  described.delete(key);
  described.set(key, probe);
  if (described.size > DESCRIBED_MAX) described.delete(described.keys().next().value!);
}

export async function probeAudio(path: string, options: ProbeOptions = {}): Promise<AudioProbe> {
  const stat = await fs.stat(path, { bigint: true });
  if (stat.size === 0n) throw new AudioError('empty', 'The audio file is empty (0 bytes)');
  const sizeBytes = Number(stat.size);
  const head = await readHead(path, 65_536);
  const wav = isRiffWave(head) ? await readWavLayout(path) : undefined;
  if (wav && wav.sampleRate > 0) {
    options.signal?.throwIfAborted();
    checkWavHeader(head, sizeBytes);
    const probe: AudioProbe = {
      durationSeconds: wav.dataBytes / wav.blockAlign / wav.sampleRate,
      durationEstimated: false,
      sampleRate: wav.sampleRate,
      channels: wav.channels,
      codec: wav.format,
      container: 'wav',
      sizeBytes,
      streamIndex: 0,
    };
    if (options.maxSeconds !== undefined && probe.durationSeconds > options.maxSeconds) throw tooLong(probe.durationSeconds, options.maxSeconds);
    return probe;
  }
  const key = `${ffprobeProgram()}|${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeNs}`;
  const known = described.get(key);
  if (known) {
    options.signal?.throwIfAborted();
    if (options.maxSeconds !== undefined && known.durationSeconds > options.maxSeconds) throw tooLong(known.durationSeconds, options.maxSeconds);
    return { ...known };
  }
  const result = await runTool(
    ffprobeProgram(),
    ['-v', 'warning', '-hide_banner', '-print_format', 'json', '-show_format', '-show_streams', '-i', path],
    { timeoutMs: options.timeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS, signal: options.signal },
  );
  if (result.code !== 0) throw classifyFailure(result.stderr, head, path);
  let info: FfprobeOutput;
  try {
    info = JSON.parse(result.stdout.toString('utf8')) as FfprobeOutput;
  } catch {
    throw new AudioError('not_audio', 'The file could not be read as audio (ffprobe gave no description)');
  }
  const streams = info.streams ?? [];
  const audio = streams.find((s) => s.codec_type === 'audio');
  if (!audio) {
    const kinds = [...new Set(streams.map((s) => s.codec_type ?? 'unknown'))];
    if (streams.length === 0 || (info.format?.format_name ?? '').match(/^(tty|txt|lrc|srt|ass|webvtt)$/)) {
      throw new AudioError('not_audio', 'The file is not audio: no audio or media streams were found in it');
    }
    throw new AudioError('no_audio_stream', `The file has no audio stream (it holds ${kinds.join(', ')} only)`);
  }
  const sampleRate = Number(audio.sample_rate);
  const channels = audio.channels ?? 0;
  if (!(sampleRate > 0) || !(channels > 0)) {
    throw new AudioError('not_audio', 'The audio stream declares no sample rate or channels');
  }
  const declared = Number(info.format?.duration ?? audio.duration ?? 0);
  const probe: AudioProbe = {
    durationSeconds: Number.isFinite(declared) && declared > 0 ? declared : 0,
    durationEstimated: /Estimating duration from bitrate/i.test(result.stderr),
    sampleRate,
    channels,
    codec: audio.codec_name ?? 'unknown',
    container: info.format?.format_name ?? 'unknown',
    sizeBytes,
    streamIndex: audio.index,
  };
  if (probe.container === 'wav') checkWavHeader(head, sizeBytes);
  remember(key, { ...probe });
  if (options.maxSeconds !== undefined && probe.durationSeconds > options.maxSeconds) {
    throw tooLong(probe.durationSeconds, options.maxSeconds);
  }
  return probe;
}

export function tooLong(seconds: number, maxSeconds: number): AudioError {
  return new AudioError(
    'too_long',
    `The audio lasts ${seconds.toFixed(1)} s, more than the ${maxSeconds} s allowed`,
    { durationSeconds: Number(seconds.toFixed(3)), maxSeconds },
  );
}

async function readHead(path: string, bytes: number): Promise<Buffer> {
  const handle = await fs.open(path, 'r');
  try {
    const buf = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buf, 0, bytes, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

function isRiffWave(head: Buffer): boolean {
  return head.length >= 12 && head.toString('latin1', 0, 4) === 'RIFF' && head.toString('latin1', 8, 12) === 'WAVE';
}

function isIsoMedia(head: Buffer): boolean {
  return head.length >= 8 && ['ftyp', 'moov', 'mdat', 'wide', 'free'].includes(head.toString('latin1', 4, 8));
}

/** Why ffprobe could not read a file: a known container cut short, or not media at all. */
function classifyFailure(stderr: string, head: Buffer, path: string): AudioError {
  const detail = firstError(stderr, path);
  if (isRiffWave(head) && /no 'data' tag found|Invalid data found/.test(stderr)) {
    return new AudioError('truncated', `The WAV file is cut short: it ends before its audio data (${detail})`);
  }
  if (isIsoMedia(head) && /moov atom not found/.test(stderr)) {
    return new AudioError('truncated', `The MP4/M4A file is incomplete: its index (moov) is missing (${detail})`);
  }
  if (stderr.trim() !== '') {
    return new AudioError('not_audio', `The file is not audio that can be decoded (${detail})`);
  }
  return new AudioError('not_audio', 'The file is not audio that can be decoded');
}

/**
 * A WAV whose data chunk declares more bytes than the file holds was cut short. Headers that declare 0 or
 * 0xFFFFFFFF (written by a recorder that never finished, or streamed) tell nothing and pass.
 */
function checkWavHeader(head: Buffer, fileSize: number): void {
  if (!isRiffWave(head)) return; // RF64 and others: trust ffmpeg
  let offset = 12;
  let blockAlign = 1;
  while (offset + 8 <= head.length) {
    const id = head.toString('latin1', offset, offset + 4);
    const size = head.readUInt32LE(offset + 4);
    if (id === 'fmt ' && offset + 22 <= head.length) blockAlign = Math.max(1, head.readUInt16LE(offset + 20));
    if (id === 'data') {
      if (size === 0 || size === 0xffffffff) return;
      const end = offset + 8 + size;
      const missing = end - fileSize;
      if (missing > blockAlign) {
        const pct = Math.round((100 * missing) / size);
        throw new AudioError(
          'truncated',
          `The WAV file is cut short: its header declares ${size} bytes of audio but ${pct}% of them are missing`,
          { declaredBytes: size, missingBytes: missing },
        );
      }
      return;
    }
    offset += 8 + size + (size % 2);
  }
}
