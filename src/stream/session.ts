// One live call: audio in (per channel, at the client's rate and encoding), redacted realTimeMessage objects
// out, and at the end the after-call job. Transport-free: the WebSocket routes (api/routes/stream.ts: the
// Scrubline protocol and Twilio Media Streams) feed it and send what it emits.
//
//   bytes → G.711 or PCM → channel samples → recording (WAV, source rate)
//                                         → resampled to the engine's rate → engine stream (worker thread)
//   engine updates → LiveRedactor (one redaction core) → marked windows (pause/resume) → realTimeMessage → client
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { SampleQueue } from './sampleQueue.js';
import { decodeALaw, decodeMuLaw } from '../audio/g711.js';
import { StreamResampler } from '../audio/resampler.js';
import { WavWriter } from '../audio/wavWriter.js';
import type { Engine, EngineStream, StreamUpdate } from '../engine/engine.js';
import type { Masker } from '../redact/masks.js';
import type { RedactionRule } from '../redact/rules.js';
import type { SensitiveWindowMark } from '../schema/resources/request.js';
import type { StreamPause, StreamResume, StreamStart } from '../schema/resources/streamMessages.js';
import type { Word } from '../transcript/types.js';
import { ArrivalClock } from './arrivalClock.js';
import { LiveRedactor, type RedactedFinal } from './liveRedactor.js';
import { NumberCues } from '../redact/numberCues.js';
import { MarkedWindows } from './markedWindows.js';
import { invalid } from '../errors.js';

/** The longest gap (s) a track's timestamps may leave, filled with silence. */
export const MAX_GAP_SECONDS = 600;

/** Where real-time insights (alerts, prompts) plug in: given a redacted final, what to add to its message. */
export type InsightsHook = (final: { channel: number; speaker: string; text: string; start: number; end: number }) =>
  | { alert?: string; prompt?: string; insights?: string }
  | undefined;

/** A message the session sends (JSON text frame). */
export type OutgoingMessage = Record<string, unknown> & { type: string };

export interface SessionOptions {
  id?: string;
  start: StreamStart;
  engine: Engine;
  model: string;
  params: Record<string, unknown>;
  rules: readonly RedactionRule[];
  masker: Masker;
  /** Kinds redacted in flight (reported in the summary). */
  kinds: readonly string[];
  /** Folder for the recording while the call lasts (the job path moves it). */
  tempDir: string;
  /** This process's staging folder: where a channel far ahead of another waits (sampleQueue.ts); default tempDir. */
  spillDir?: string;
  send(message: OutgoingMessage): void;
  /** The recording made into a job; answers its id. */
  makeJob?(wavPath: string, session: StreamSession): Promise<string>;
  insights?: InsightsHook;
  /** Where finals are kept as sent (stream_messages); the summary waits for it. */
  transcript?: { keep(message: OutgoingMessage & { sequence: number; channel: number }): void; settled(): Promise<string | undefined> };
  onError?(error: Error): void;
  /** Told how long after its audio arrived each message was sent (s): partial lag, final delay from its last word. */
  timing?: { partial(lagSeconds: number): void; final(delaySeconds: number): void };
}

export interface StreamSummary extends OutgoingMessage {
  type: 'summary';
  streamId: string;
  reason: string;
  audioSeconds: number;
  messages: number;
  finals: number;
  partials: number;
  /** Seconds of the finals whose words are the partials decoder's (passes shed to keep finals on time). */
  finalsShedSeconds: number;
  lastSequence: number;
  model: string;
  redaction: { kinds: string[] };
  /** The windows the client marked (pause/resume), as the after-call job gets them. */
  sensitiveWindows: SensitiveWindowMark[];
  jobId?: string;
  jobError?: string;
  /** Keeping the finals failed (the first failure). */
  transcriptError?: string;
}

interface Channel {
  index: number;
  speaker: string;
  resampler: StreamResampler;
  stream: EngineStream;
  redactor: LiveRedactor;
  /** Samples at the source rate waiting to be interleaved into the recording (past a few seconds, in a file). */
  pending: SampleQueue;
  lastPartial: string;
  heard: number;
  /** Samples received on this channel (at the source rate): the clock of pause/resume. */
  received: number;
}

/** Seconds of one channel held in memory while another lags; more wait in a file. */
const HELD_SECONDS = 10;

export class StreamSession {
  readonly id: string;
  readonly start: StreamStart;
  readonly wavPath: string;
  private readonly channels: Channel[];
  /** Number cues heard on any channel: a request on one is answered on the other (numberCues.ts). */
  private readonly cues: NumberCues;
  private readonly wav: WavWriter;
  private sequence = 0;
  private finals = 0;
  private partials = 0;
  private shedSeconds = 0;
  private ending: Promise<StreamSummary> | undefined;
  private failed: Error | undefined;
  private readonly sourceRate: number;
  private carry = new Uint8Array(0);
  private readonly windows: MarkedWindows;
  private readonly arrivals: ArrivalClock;
  lastAudioAt = Date.now();

  constructor(private readonly options: SessionOptions) {
    this.id = options.id ?? crypto.randomUUID();
    this.start = options.start;
    this.sourceRate = options.start.sampleRate;
    const count = options.start.channels ?? 1;
    fs.mkdirSync(options.tempDir, { recursive: true });
    this.wavPath = path.join(options.tempDir, `stream-${this.id}.wav`);
    this.wav = new WavWriter(this.wavPath, this.sourceRate, count);
    const rate = options.engine.sampleRate(options.model);
    if (!options.engine.stream) throw new Error(`the ${options.engine.name} engine does not stream`);
    this.cues = new NumberCues(options.kinds);
    this.channels = [];
    for (let index = 0; index < count; index++) {
      const stream = options.engine.stream(index, {
        model: options.model,
        params: options.params as never,
        // No partials asked: the engine may skip decoding them (PocketSphinx: only the final pass runs).
        partials: options.start.partials !== false,
        ...(options.start.maxDelay !== undefined && { maxDelay: options.start.maxDelay }),
        onUpdate: (update) => this.onUpdate(update),
        onError: (error) => this.onError(error),
      });
      this.channels.push({
        index,
        speaker: speakerOf(index, count, options.start.agentChannel),
        resampler: new StreamResampler(this.sourceRate, rate),
        stream,
        redactor: new LiveRedactor(options.rules, options.masker, this.cues),
        pending: new SampleQueue(options.spillDir ?? options.tempDir, HELD_SECONDS * this.sourceRate),
        lastPartial: '',
        heard: 0,
        received: 0,
      });
    }
    this.windows = new MarkedWindows(count);
    this.arrivals = new ArrivalClock(count);
  }

  get model(): string {
    return this.options.model;
  }

  get channelCount(): number {
    return this.channels.length;
  }

  /** Seconds of audio received (per channel). */
  get audioSeconds(): number {
    return Math.max(this.wav.seconds, ...this.channels.map((c) => c.pending.length / this.sourceRate + this.wav.seconds));
  }

  /** Most audio (s) waiting for a decoder on any channel: the back-pressure measure. */
  backlogSeconds(): number {
    return Math.max(0, ...this.channels.map((c) => c.stream.pendingSeconds()));
  }

  /** A binary frame of the Scrubline protocol: interleaved samples in the start message's encoding. */
  acceptFrame(bytes: Uint8Array): void {
    const n = this.channels.length;
    // A frame need not end on a sample (or a frame of samples): the rest waits for the next one, never dropped.
    const unit = (this.start.encoding === 'pcm_s16le' ? 2 : 1) * n;
    if (this.carry.length > 0) {
      const joined = new Uint8Array(this.carry.length + bytes.length);
      joined.set(this.carry);
      joined.set(bytes, this.carry.length);
      bytes = joined;
    }
    const whole = bytes.length - (bytes.length % unit);
    this.carry = bytes.slice(whole);
    const samples = decodeSamples(bytes.subarray(0, whole), this.start.encoding);
    if (n === 1) return this.acceptChannel(0, samples);
    const frames = Math.floor(samples.length / n);
    for (let c = 0; c < n; c++) {
      const one = new Int16Array(frames);
      for (let i = 0; i < frames; i++) one[i] = samples[i * n + c];
      this.acceptChannel(c, one);
    }
  }

  /** Samples of one channel at the source rate (Twilio sends each track on its own). */
  acceptChannel(index: number, samples: Int16Array): void {
    if (this.ending || samples.length === 0) return;
    const channel = this.channels[index];
    if (!channel) return;
    this.lastAudioAt = Date.now();
    channel.pending.push(samples);
    channel.received += samples.length;
    this.arrivals.arrived(index, channel.received / this.sourceRate, this.lastAudioAt);
    this.record(false);
    channel.stream.write(channel.resampler.push(samples));
  }

  /**
   * Silence up to `seconds` of the channel's stream time, where its audio stops short of it (a Twilio track that
   * starts late or skips packets, by media.timestamp): the words after the gap keep their time. A jump of more than
   * MAX_GAP_SECONDS is refused (a timestamp that far ahead is no call's).
   */
  fillTo(index: number, seconds: number): void {
    const channel = this.channels[index];
    if (!channel || this.ending) return;
    const missing = Math.round(seconds * this.sourceRate) - channel.received;
    // Jitter of less than a packet (20 ms) is not a gap.
    if (missing <= this.sourceRate / 50) return;
    if (missing > MAX_GAP_SECONDS * this.sourceRate) throw invalid(`media.timestamp ${Math.round(seconds * 1000)} is more than ${MAX_GAP_SECONDS} s past the track's audio.`);
    for (let left = missing; left > 0; left -= this.sourceRate) this.acceptChannel(index, new Int16Array(Math.min(left, this.sourceRate)));
  }

  /** A pause control message: a window opens at the audio received so far. Throws when it cannot be done as asked. */
  pause(message: StreamPause): { kind: string; channels: number[]; at: number[] } {
    const kind = this.windows.pause(message.kind, message.channel, (c) => this.channelSeconds(c));
    return { kind, ...this.controlled(message.channel) };
  }

  /** A resume control message: the open window closes here. Throws (409) when none is open. */
  resume(message: StreamResume): { channels: number[]; at: number[] } {
    this.windows.resume(message.channel, (c) => this.channelSeconds(c));
    return this.controlled(message.channel);
  }

  /** The client-marked windows so far (open ones are not marks yet). */
  sensitiveWindows(): SensitiveWindowMark[] {
    return this.windows.marks();
  }

  private channelSeconds(index: number): number {
    return this.channels[index].received / this.sourceRate;
  }

  private controlled(channel: number | undefined): { channels: number[]; at: number[] } {
    const channels = channel === undefined ? this.channels.map((c) => c.index) : [channel];
    return { channels, at: channels.map((c) => round3(this.channelSeconds(c))) };
  }

  /** Whether the call has ended (end message, close, idle, error). */
  /** Keep the recording's file fresh while the stream is open (jobs/orphanUploads.ts sweeps files left untouched). */
  keepFresh(): void {
    try {
      if (Date.now() - this.lastAudioAt >= 60_000) this.wav.touch();
    } catch {
      // Nothing lost: the file is only swept after 15 minutes untouched, and the next beat tries again.
    }
  }

  get ended(): boolean {
    return this.ending !== undefined;
  }

  /**
   * End of the call, for whatever reason: the rest decoded, every final sent, the recording closed and made
   * into a job, the summary sent. Safe to call more than once (answers the same summary).
   */
  end(reason: string): Promise<StreamSummary> {
    this.ending ??= this.finish(reason);
    return this.ending;
  }

  private async finish(reason: string): Promise<StreamSummary> {
    for (const channel of this.channels) {
      const rest = channel.resampler.flush();
      if (rest.length > 0) channel.stream.write(rest);
    }
    const results = await Promise.allSettled(this.channels.map((c) => c.stream.finish()));
    for (const channel of this.channels) this.sendFinals(channel, channel.redactor.flush());
    const failure = results.find((r) => r.status === 'rejected') as PromiseRejectedResult | undefined;
    if (failure && !this.failed) this.failed = failure.reason as Error;
    this.record(true);
    for (const c of this.channels) c.pending.close();
    this.wav.close();
    // A stream that ends paused: the window closes at the end of the recording.
    this.windows.closeAll(this.wav.seconds);
    let jobId: string | undefined;
    let jobError: string | undefined;
    if (this.options.makeJob && this.start.job !== false && this.wav.seconds > 0) {
      try {
        jobId = await this.options.makeJob(this.wavPath, this);
      } catch (error) {
        jobError = (error as Error).message;
      }
    }
    fs.rmSync(this.wavPath, { force: true });
    // The kept transcript is complete before the summary says the stream ended.
    const transcriptError = await this.options.transcript?.settled();
    const summary: StreamSummary = {
      type: 'summary',
      streamId: this.id,
      reason: this.failed ? `recognition failed: ${this.failed.message}` : reason,
      audioSeconds: round3(this.wav.seconds),
      messages: this.sequence,
      finals: this.finals,
      partials: this.partials,
      finalsShedSeconds: round3(this.shedSeconds),
      lastSequence: this.sequence,
      model: this.options.model,
      redaction: { kinds: [...this.options.kinds] },
      sensitiveWindows: this.windows.marks(),
      ...(jobId && { jobId }),
      ...(jobError && { jobError }),
      ...(transcriptError && { transcriptError }),
    };
    this.options.send(summary);
    return summary;
  }

  /** Abandon without a job (the server is closing). */
  abort(): void {
    for (const c of this.channels) {
      c.stream.abort();
      c.pending.close();
    }
    this.wav.close();
    fs.rmSync(this.wavPath, { force: true });
  }

  /** Interleave what every channel has into the recording (at the end, the shorter padded with silence). */
  private record(final: boolean): void {
    const n = this.channels.length;
    const lengths = this.channels.map((c) => c.pending.length);
    let frames = final ? Math.max(...lengths) : Math.min(...lengths);
    // A second at a time: a channel that caught up after long (or the end) never needs the whole call in memory.
    while (frames > 0) {
      const step = Math.min(frames, this.sourceRate);
      const out = new Int16Array(step * n);
      for (const c of this.channels) {
        const taken = c.pending.take(step);
        for (let i = 0; i < taken.length; i++) out[i * n + c.index] = taken[i];
      }
      this.wav.append(out);
      frames -= step;
    }
  }

  private onError(error: Error): void {
    this.failed ??= error;
    this.options.onError?.(error);
  }

  private onUpdate(update: StreamUpdate): void {
    const channel = this.channels[update.channel];
    if (!channel) return;
    channel.heard = update.heardSeconds;
    for (const final of update.finals) {
      this.shedSeconds += final.shedSeconds ?? 0;
      // Cues are heard on the words as recognized, before redaction (a cue may sit next to what it masks).
      this.cues.hear(channel.index, final.words);
      this.sendFinals(channel, channel.redactor.final(final));
    }
    this.sendFinals(channel, channel.redactor.tick(update.heardSeconds));
    // A partial touching a marked window is not sent at all: its words have no times to mask them by.
    if (update.partial && this.start.partials !== false && !this.windows.overlaps(channel.index, update.partial.start, update.partial.end)) {
      const text = channel.redactor.partial(update.partial.words).join(' ');
      if (text !== channel.lastPartial && text !== '') {
        channel.lastPartial = text;
        this.partials++;
        this.emit(channel, { isFinal: false, text, messageStartTime: update.partial.start, messageEndTime: update.partial.end });
      }
    }
  }

  private sendFinals(channel: Channel, finals: RedactedFinal[]): void {
    for (const redacted of finals) {
      channel.lastPartial = '';
      // Words said inside a marked window go whatever the core made of them (windows only grow: applied as sent).
      const windowed = this.windows.mask(channel.index, redacted.words, this.options.rules);
      const final = { ...redacted, words: windowed.words, kinds: [...new Set([...redacted.kinds, ...windowed.kinds])] };
      const text = final.words.map((w) => w.word).join(' ');
      const confidence = final.words.length > 0 ? round3(final.words.reduce((s, w) => s + w.confidence, 0) / final.words.length) : 0;
      this.finals++;
      const extra = this.options.insights?.({ channel: channel.index, speaker: channel.speaker, text, start: final.start, end: final.end });
      this.emit(channel, { isFinal: true, text, confidence, messageStartTime: final.start, messageEndTime: final.end, ...extra }, final.words, final.kinds);
    }
  }

  private emit(channel: Channel, fields: Record<string, unknown>, words?: Word[], kinds?: string[]): void {
    const s = this.start;
    const realTimeMessage = {
      ...fields,
      speaker: channel.speaker,
      type: 'transcript',
      ...(s.engagementId && { engagementId: s.engagementId }),
      ...(s.ucid && { ucid: s.ucid }),
      ...(s.agentId && { agentId: s.agentId }),
      ...(s.clientNumber && { clientNumber: this.clientNumber() }),
      ...(s.campaign && { campaign: s.campaign }),
    };
    const message = {
      type: 'realTimeMessage',
      sequence: ++this.sequence,
      streamId: this.id,
      channel: channel.index,
      realTimeMessage,
      ...(words && { words }),
      ...(kinds && kinds.length > 0 && { redacted: kinds }),
    };
    this.options.send(message);
    if (fields.isFinal === true) this.options.transcript?.keep(message);
    this.time(channel.index, fields.isFinal === true, fields.messageEndTime as number);
  }

  /** A message's lag behind the audio it is about, for the metrics (none when that audio's arrival is not known). */
  private time(channel: number, isFinal: boolean, endSeconds: number): void {
    const timing = this.options.timing;
    const arrived = timing && Number.isFinite(endSeconds) ? this.arrivals.arrivedAt(channel, endSeconds) : undefined;
    if (arrived === undefined) return;
    const seconds = Math.max(0, (Date.now() - arrived) / 1000);
    if (isFinal) timing!.final(seconds);
    else timing!.partial(seconds);
  }

  /** The caller's number as a phone field: masked when phone numbers are redacted. */
  private clientNumber(): string {
    const rule = this.options.rules.find((r) => r.kind === 'PhoneNumber');
    return rule ? this.options.masker.mask(rule, this.start.clientNumber!) : this.start.clientNumber!;
  }
}

function speakerOf(index: number, count: number, agentChannel: number | undefined): string {
  if (count === 1) return agentChannel === 0 ? 'agent' : 'unknown';
  return index === (agentChannel ?? 0) ? 'agent' : 'caller';
}

export function decodeSamples(bytes: Uint8Array, encoding: StreamStart['encoding']): Int16Array {
  if (encoding === 'mulaw') return decodeMuLaw(bytes);
  if (encoding === 'alaw') return decodeALaw(bytes);
  const count = Math.floor(bytes.length / 2);
  const out = new Int16Array(count);
  const view = new DataView(bytes.buffer, bytes.byteOffset, count * 2);
  for (let i = 0; i < count; i++) out[i] = view.getInt16(i * 2, true);
  return out;
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
