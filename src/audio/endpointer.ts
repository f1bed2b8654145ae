// The live endpointer of the engines that cut a stream into utterances themselves (PocketSphinx's incremental
// decoder, offline sherpa-onnx models decoded per utterance): PCM arrives in chunks; a 10 ms frame whose energy
// reaches `activitylevel` opens an utterance (with `uttpadding` of audio before it), which ends after
// `uttmaxsilence` of silence or `uttmaxtime` of length. Pure and synchronous: chunks in, events out, the
// decoder acts on them in order (one 'audio' event per contiguous run of a chunk, so it is fed once per chunk).
import { frameEnergies, VAD_FRAME_MS, type VadParams } from './vad.js';

export type EndpointEvent =
  /** `start`: seconds of the stream at which the utterance begins (its padding included). */
  | { kind: 'open'; start: number }
  | { kind: 'audio'; samples: Int16Array }
  /**
   * `noise`: too little activity to be speech (a click, a breath); times in seconds of the stream. `speechEnd`:
   * the end of the last active frame (the utterance's trailing silence starts there).
   */
  | { kind: 'close'; start: number; end: number; noise: boolean; speechEnd: number };

export class Endpointer {
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
  private utterance: { startFrame: number; firstActive: number; lastActive: number } | undefined;

  constructor(
    private readonly vad: VadParams,
    private readonly sampleRate: number,
  ) {
    this.frameLen = Math.round((sampleRate * VAD_FRAME_MS) / 1000);
    this.silenceFrames = Math.max(1, Math.round(vad.uttmaxsilence / VAD_FRAME_MS));
    this.maxFrames = Math.max(1, Math.round((vad.uttmaxtime * 1000) / VAD_FRAME_MS));
    this.minActiveFrames = Math.round(vad.uttminactivity / VAD_FRAME_MS);
    this.padFrames = Math.round(vad.uttpadding / VAD_FRAME_MS);
  }

  /** Seconds of the stream heard (whole frames). */
  get heardSeconds(): number {
    return this.frame / 100;
  }

  get open(): boolean {
    return this.utterance !== undefined;
  }

  /** End (seconds) of the open utterance's last active frame, or undefined when none is open. */
  get speechEnd(): number | undefined {
    return this.utterance && (this.utterance.lastActive + 1) / 100;
  }

  /** Seconds at which the open utterance began (its padding included). */
  get utteranceStart(): number | undefined {
    return this.utterance && this.utterance.startFrame / 100;
  }

  push(samples: Int16Array): EndpointEvent[] {
    const all = new Int16Array(this.rest.length + samples.length);
    all.set(this.rest);
    all.set(samples, this.rest.length);
    const whole = Math.floor(all.length / this.frameLen) * this.frameLen;
    this.rest = all.slice(whole);
    const frames = all.subarray(0, whole);
    const energies = frameEnergies(frames, this.sampleRate);
    const events: EndpointEvent[] = [];
    // Frames of the open utterance waiting to be emitted (at once: one event per run, not per frame).
    let feedFrom = -1;
    const feed = (to: number) => {
      if (feedFrom >= 0 && to > feedFrom) events.push({ kind: 'audio', samples: frames.subarray(feedFrom * this.frameLen, to * this.frameLen) });
      feedFrom = -1;
    };
    for (let f = 0; f < energies.length; f++) {
      const active = energies[f] >= this.vad.activitylevel;
      if (!this.utterance) {
        if (!active) {
          this.preroll.push(frames.slice(f * this.frameLen, (f + 1) * this.frameLen));
          if (this.preroll.length > this.padFrames) this.preroll.shift();
          this.frame++;
          continue;
        }
        this.openUtterance(events);
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
        events.push(this.close());
      }
    }
    if (this.utterance) feed(energies.length);
    return events;
  }

  /** End of the stream: the part-frame left and the open utterance's end. */
  finish(): EndpointEvent[] {
    const events: EndpointEvent[] = [];
    if (this.utterance) {
      if (this.rest.length > 0) events.push({ kind: 'audio', samples: this.rest });
      events.push(this.close());
    }
    this.rest = new Int16Array(0);
    return events;
  }

  private openUtterance(events: EndpointEvent[]): void {
    const pre = this.preroll;
    this.preroll = [];
    this.utterance = { startFrame: this.frame - pre.length, firstActive: -1, lastActive: this.frame };
    events.push({ kind: 'open', start: this.utterance.startFrame / 100 });
    if (pre.length > 0) {
      const joined = new Int16Array(pre.length * this.frameLen);
      pre.forEach((p, i) => joined.set(p, i * this.frameLen));
      events.push({ kind: 'audio', samples: joined });
    }
  }

  private close(): EndpointEvent {
    const u = this.utterance!;
    this.utterance = undefined;
    const noise = u.firstActive < 0 || u.lastActive - u.firstActive + 1 < this.minActiveFrames;
    return { kind: 'close', start: u.startFrame / 100, end: this.frame / 100, noise, speechEnd: (u.lastActive + 1) / 100 };
  }
}
