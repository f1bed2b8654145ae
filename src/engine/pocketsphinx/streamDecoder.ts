// Incremental PocketSphinx decoding of one channel of a live call, inside a stream worker thread
// (engine/streamWorker.ts): PCM arrives in chunks; an energy endpointer (the engine's VAD parameters) opens an
// utterance at speech (with `uttpadding` of audio before it) and ends it after `uttmaxsilence` of silence or
// `uttmaxtime` of length. Inside an utterance every chunk goes through ps_process_raw and the hypothesis so far
// (ps_get_hyp) is the partial; at its end ps_end_utt and the segment iterator give the final words with times
// and confidences. A FRESH decoder per stream channel (decoder state leaks between recordings, STACK.md); the
// utterances of one channel share it, as the stretches of one batch task do.
//
// Synchronous and CPU-bound: it runs in a worker thread, never on the event loop.
import { frameEnergies, VAD_FRAME_MS, type VadParams } from '../../audio/vad.js';
import type { Word } from '../../transcript/types.js';
import { loadPocketSphinx, type PocketSphinxLib, type Pointer } from './binding.js';
import { checkModelFiles, cleanWord, decoderArgs, readSegments, type PocketSphinxModel } from './decoder.js';

/** What one chunk (or the end) produced: at most one partial (the open utterance) and the utterances it ended. */
export interface StreamStep {
  finals: { start: number; end: number; words: Word[] }[];
  partial?: { start: number; end: number; words: string[] };
  /** Seconds of the channel heard so far. */
  heardSeconds: number;
  /** CPU seconds this step took in the decoder. */
  decodeSeconds: number;
}

/**
 * How finals are made: `rescored` decodes the ended utterance again as one whole (full_utt: its cepstral mean
 * over the utterance, as batch decoding does), so finals agree with the batch transcript; `live` keeps the
 * incremental result (half the CPU, but its cepstral mean is estimated as the audio comes, which decodes the
 * first seconds of a stream much worse). The README states the figures of both.
 */
export type FinalPass = 'rescored' | 'live';

export class StreamDecoder {
  private readonly lib: PocketSphinxLib;
  private readonly decoder: Pointer;
  private readonly frameLen: number;
  private readonly silenceFrames: number;
  private readonly maxFrames: number;
  private readonly minActiveFrames: number;
  private readonly padFrames: number;
  /** Samples not yet making a whole frame. */
  private rest = new Int16Array(0);
  /** Frames heard (10 ms each), i.e. the time of the next frame. */
  private frame = 0;
  /** Frames kept before speech (uttpadding), while no utterance is open. */
  private preroll: Int16Array[] = [];
  private utterance: { startFrame: number; firstActive: number; lastActive: number; lastHyp: string } | undefined;
  private closed = false;

  /** The open utterance's audio (for the final pass), as fed. */
  private heard: Int16Array[] = [];

  constructor(
    model: PocketSphinxModel,
    private readonly vad: VadParams,
    private readonly finals: FinalPass = 'rescored',
  ) {
    this.lib = loadPocketSphinx();
    checkModelFiles(model);
    const config = this.lib.parseConfig(decoderArgs(model));
    try {
      this.decoder = this.lib.init(config);
    } finally {
      this.lib.freeConfig(config);
    }
    this.frameLen = Math.round((model.sampleRate * VAD_FRAME_MS) / 1000);
    this.sampleRate = model.sampleRate;
    this.silenceFrames = Math.max(1, Math.round(vad.uttmaxsilence / VAD_FRAME_MS));
    this.maxFrames = Math.max(1, Math.round((vad.uttmaxtime * 1000) / VAD_FRAME_MS));
    this.minActiveFrames = Math.round(vad.uttminactivity / VAD_FRAME_MS);
    this.padFrames = Math.round(vad.uttpadding / VAD_FRAME_MS);
  }

  private readonly sampleRate: number;

  /** One chunk of the channel (any length). */
  accept(samples: Int16Array): StreamStep {
    const t0 = performance.now();
    const all = new Int16Array(this.rest.length + samples.length);
    all.set(this.rest);
    all.set(samples, this.rest.length);
    const whole = Math.floor(all.length / this.frameLen) * this.frameLen;
    this.rest = all.slice(whole);
    const frames = all.subarray(0, whole);
    const energies = frameEnergies(frames, this.sampleRate);
    const finals: StreamStep['finals'] = [];
    // Frames of the open utterance waiting to be fed (fed at once: one ps_process_raw per chunk, not per frame).
    let feedFrom = -1;
    const feed = (to: number) => {
      if (feedFrom >= 0 && to > feedFrom) this.process(frames.subarray(feedFrom * this.frameLen, to * this.frameLen));
      feedFrom = -1;
    };
    for (let f = 0; f < energies.length; f++) {
      const active = energies[f] >= this.vad.activitylevel;
      const frame = frames.subarray(f * this.frameLen, (f + 1) * this.frameLen);
      if (!this.utterance) {
        if (!active) {
          this.preroll.push(frame.slice());
          if (this.preroll.length > this.padFrames) this.preroll.shift();
          this.frame++;
          continue;
        }
        this.open();
        feedFrom = f;
      }
      const u = this.utterance!;
      if (feedFrom < 0) feedFrom = f;
      if (active) {
        if (u.firstActive < 0) u.firstActive = this.frame;
        u.lastActive = this.frame;
      }
      this.frame++;
      if (this.frame - u.lastActive > this.silenceFrames || this.frame - u.startFrame >= this.maxFrames) {
        feed(f + 1);
        const final = this.close();
        if (final) finals.push(final);
      }
    }
    if (this.utterance) feed(energies.length);
    const partial = this.partial();
    return { finals, ...(partial && { partial }), heardSeconds: this.frame / 100, decodeSeconds: (performance.now() - t0) / 1000 };
  }

  /** End of the channel: the open utterance ends. */
  finish(): StreamStep {
    const t0 = performance.now();
    const finals: StreamStep['finals'] = [];
    if (this.utterance) {
      if (this.rest.length > 0) this.process(this.rest);
      const final = this.close();
      if (final) finals.push(final);
    }
    this.rest = new Int16Array(0);
    return { finals, heardSeconds: this.frame / 100, decodeSeconds: (performance.now() - t0) / 1000 };
  }

  free(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.utterance) this.lib.endUtt(this.decoder);
    this.lib.free(this.decoder);
  }

  private open(): void {
    if (this.lib.startUtt(this.decoder) < 0) throw new Error('PocketSphinx could not start an utterance');
    const pre = this.preroll;
    this.preroll = [];
    this.utterance = { startFrame: this.frame - pre.length, firstActive: -1, lastActive: this.frame, lastHyp: '' };
    if (pre.length > 0) {
      const joined = new Int16Array(pre.length * this.frameLen);
      pre.forEach((p, i) => joined.set(p, i * this.frameLen));
      this.process(joined);
    }
  }

  private process(samples: Int16Array): void {
    if (this.finals === 'rescored') this.heard.push(samples.slice());
    // Live mode (full_utt = false): the cepstral mean is estimated as the audio comes, not over the utterance.
    if (this.lib.processRaw(this.decoder, samples, false, false) < 0) throw new Error('PocketSphinx failed to process audio');
  }

  private partial(): StreamStep['partial'] | undefined {
    const u = this.utterance;
    if (!u) return undefined;
    const hyp = (this.lib.getHyp(this.decoder) ?? '').trim();
    if (hyp === u.lastHyp) return undefined;
    u.lastHyp = hyp;
    const words = hyp.split(/\s+/).filter(Boolean).map(cleanWord).filter((w): w is string => w !== null);
    return { start: u.startFrame / 100, end: this.frame / 100, words };
  }

  private close(): { start: number; end: number; words: Word[] } | undefined {
    const u = this.utterance!;
    this.utterance = undefined;
    if (this.lib.endUtt(this.decoder) < 0) throw new Error('PocketSphinx could not end an utterance');
    const start = u.startFrame / 100;
    const end = this.frame / 100;
    // Too little speech to be an utterance (a click, a breath): nothing final, unless a partial was shown,
    // which the final must then replace.
    const noise = u.firstActive < 0 || u.lastActive - u.firstActive + 1 < this.minActiveFrames;
    const heard = this.heard;
    this.heard = [];
    if (noise && u.lastHyp === '') return undefined;
    if (this.finals === 'rescored' && !noise) {
      const total = heard.reduce((n, h) => n + h.length, 0);
      const all = new Int16Array(total);
      let at = 0;
      for (const h of heard) {
        all.set(h, at);
        at += h.length;
      }
      if (this.lib.startUtt(this.decoder) < 0) throw new Error('PocketSphinx could not start an utterance');
      if (this.lib.processRaw(this.decoder, all, false, true) < 0) throw new Error('PocketSphinx failed to process audio');
      if (this.lib.endUtt(this.decoder) < 0) throw new Error('PocketSphinx could not end an utterance');
    }
    const words = readSegments(this.lib, this.decoder, start, end);
    return { start, end, words: noise ? [] : words };
  }
}
