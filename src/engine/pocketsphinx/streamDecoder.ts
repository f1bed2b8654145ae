// Incremental PocketSphinx decoding of one channel of a live call, inside a stream worker thread
// (engine/streamWorker.ts): PCM arrives in chunks; the energy endpointer (audio/endpointer.ts, the engine's VAD
// parameters) opens an utterance at speech (with `uttpadding` of audio before it) and ends it after
// `uttmaxsilence` of silence or `uttmaxtime` of length. Inside an utterance every chunk goes through ps_process_raw and the hypothesis so far
// (ps_get_hyp) is the partial. A FRESH decoder per stream channel (decoder state leaks between recordings,
// STACK.md); the utterances of one channel share it.
//
// Finals are decoded whole again, as batch decodes a VAD segment, on this thread's kept batch decoder (decoder.ts
// decodeWarm: reset as a fresh one, cepstral mean over the stretch given). The incremental decoder only makes
// partials, so it runs the first search pass alone, pruned harder (PARTIALS_ONLY_ARGS), and not at all when the
// client asked for no partials. Two ways (FinalPass):
// - 'phrases' (the default): a phrase is speech up to a pause of at least `uttpadding`. Its pass (phrase start to
//   its last active frame + uttpadding) runs as soon as the pause reaches uttpadding; speech that resumes keeps
//   that pass's words and the next phrase starts at the pause. So no pass is ever wasted, and the pass left at the
//   close is the utterance's last phrase only: the final goes out when the endpointer closes the utterance
//   (uttmaxsilence) for phrases up to about (uttmaxsilence − uttpadding) / RTF long. Its words differ from
//   batch's where a phrase boundary is not an utterance boundary for batch (97.8% agreement on bench/stream.ts's
//   audio; README). Pauses are looked for once per chunk: one that begins and ends inside a chunk (a backlog sent
//   as one) makes no phrase, so a stream behind real time gets longer phrases (closer to batch, later finals).
// - 'rescored': the whole utterance in one pass, the batch transcript's words exactly. A pass made in a pause is
//   voided by speech that resumes; a new one waits until the utterance has grown by half (bounds the wasted work),
//   and the final of a long utterance waits for its whole decode after the close.
//
// Stable-prefix finals (issue 33; engine/stablePrefix.ts): with a finite `maxDelay` ('phrases', no shedding), words
// decided (passed phrases) and words two successive passes over the growing open phrase agree on go out as a final
// of part of the utterance (StepFinal.prefix) once they would otherwise be older than maxDelay; the utterance's
// closing final holds the rest.
//
// engine/streamPool.ts runs a channel's partials ('none') and its finals (no partials) on two decoders on two
// threads, so that a pass never holds partials up. Synchronous and CPU-bound: worker threads, never the event loop.
//
// A final is due `deadlineMs` after its utterance's end plus uttmaxsilence (the target: 300 ms). In
// 'phrases' mode a pass that would end after that (a long phrase, a busy machine, a finals thread behind the audio)
// is not run: its phrase is *shed*, and its words are the incremental decoder's (this one's own, or the partials
// half's on the other thread, engine/streamPool.ts). So a final's latency does not grow with load or phrase
// length; its words then have the partials' quality (README "Live streams" states both figures). When a pass is
// judged is known from when each chunk arrived (`arrivals`, wall-clock ms, given by the pool; never earlier than
// real-time pace from the first chunk, so a client sending faster than real time is not judged late). Without
// arrival times (a direct caller) nothing is shed.
import { Endpointer, type EndpointEvent } from '../../audio/endpointer.js';
import type { VadParams } from '../../audio/vad.js';
import type { Word } from '../../transcript/types.js';
import { agreedCount, CUT_GUARD_SECONDS, dueCount, type PrefixPass, SAME_END_SECONDS, safeCut } from '../stablePrefix.js';
import { loadPocketSphinx, type PocketSphinxLib, type Pointer } from './binding.js';
import { cmnSeedArgs } from './cmnSeed.js';
import { checkModelFiles, cleanWord, decodeWarm, decoderArgs, readSegments, type PocketSphinxModel } from './decoder.js';

/** What one chunk (or the end) produced: at most one partial (the open utterance) and the utterances it ended. */
export interface StreamStep {
  finals: StepFinal[];
  /** The partials half of a split channel ('none'): its own words of each utterance it ended (for shed stretches). */
  liveFinals?: { start: number; end: number; words: Word[] }[];
  partial?: { start: number; end: number; words: string[] };
  /** Seconds of the channel heard so far. */
  heardSeconds: number;
  /** CPU seconds this step took in the decoder. */
  decodeSeconds: number;
}

/** An ended utterance's final. */
export interface StepFinal {
  start: number;
  end: number;
  words: Word[];
  /** Stretches shed (see the top) whose words this decoder could not give: the pool fills them. */
  shed?: ShedSpan[];
  /** Seconds of the utterance whose words are the incremental decoder's (shed passes). */
  shedSeconds?: number;
  /**
   * A stable-prefix final (engine/stablePrefix.ts): the utterance starting at `utteranceStart` goes on, and `words`
   * of it (this final's included) are final so far. The rest comes in later finals; no word is in two.
   */
  prefix?: { utteranceStart: number; words: number };
}

/**
 * How finals are made: `phrases` (default) and `rescored` decode again as batch does (see above), phrase by phrase
 * or the whole utterance (the batch transcript's words); `live` keeps the incremental decoder's own result (less
 * CPU, but its cepstral mean is estimated as the audio comes: 32% WER on bench/stream.ts's audio against batch's
 * 12%). The README states the figures. `none`: partials only (engine/streamPool.ts runs a channel's partials and its
 * finals on two decoders on different threads, so that a final pass never holds partials up).
 */
export type FinalPass = 'phrases' | 'rescored' | 'live' | 'none';

/** Seconds of this channel's audio a known arrival time is kept for (the pending phrase lies within it). */
const ARRIVALS_KEPT_SECONDS = 120;

/**
 * Seconds of pass work per second of audio on this thread lately (a moving average over every stream's passes of
 * at least a second; 0.35 until one was measured). A new stream starts from it, and a stream that sheds passes
 * relaxes its own estimate toward it: a stream that only sheds would never measure that passes got faster, while
 * the thread's other streams' shorter phrases still pass and measure it.
 */
let threadRtf = 0.35;

/** A phrase shorter than this (seconds, its padding included) is not decoded alone: it joins the next. */
const MIN_PHRASE_SECONDS = 1.5;

/**
 * Seconds of audio between two prefix passes over the open phrase (stablePrefix.ts), for a stream's maxDelay: a
 * word needs two passes that agree, and a shorter delay needs them closer (more CPU: each pass decodes the window
 * again, so a stream pays more the shorter its delay; docs/streams.md has the figures).
 */
export function prefixInterval(maxDelay: number): number {
  return Math.min(1.5, Math.max(0.5, maxDelay / 2.5));
}

/** How prefix passes window the open phrase (tests and bench/stream-prefix-cost.ts compare settings). */
export interface PrefixTuning {
  /**
   * Seconds of words already sent a window of the open phrase keeps before its new words (from a word's start):
   * left context for the search and the language model, whose words are decoded again and dropped. A window that
   * starts right at the cut, mid-speech, decoded the words after it worse (jfk.wav's first utterance 82% against
   * batch at maxDelay 4).
   */
  leadSeconds: number;
  /** The longest window a prefix pass decodes (s) before the words sent leave it: bounds a pass's work. */
  windowSeconds: number;
  /**
   * A fixed speed estimate (s of pass work per s of audio) instead of the measured one: plans then depend on stream
   * time only, so runs on a loaded machine compare (bench/stream-prefix-cost.ts). Unset in service.
   */
  rtf?: number;
  /** Seconds of audio between two prefix passes, instead of prefixInterval(maxDelay) (bench/stream-prefix-cost.ts). */
  intervalSeconds?: number;
}

export const PREFIX_TUNING: PrefixTuning = { leadSeconds: 1, windowSeconds: 8 };

/** Final-pass work of one decoder: passes made and 10 ms frames decoded (CPU-independent cost), prefix passes apart. */
export interface PassCost {
  passes: number;
  frames: number;
  prefixPasses: number;
  prefixFrames: number;
}

/**
 * The incremental decoder's search when it only makes partials: the first pass alone (the partials are its
 * hypotheses), pruned harder (at most 1500 HMMs and 10 word exits a frame, the 2 best Gaussians of each codebook
 * instead of 4). Measured on bench/stream.ts's 45 s of dev audio, both in one process, alternating, load 7: 0.13
 * CPU-s per s of audio against 0.17-0.24 with 3000 HMMs and 4 Gaussians (the previous setting) and about twice
 * that with the default pruning; the utterances' last partials 37-45% WER against 38-44% (batch: 12%). The
 * final replaces them with the final pass's words.
 */
const PARTIALS_ONLY_ARGS = ['-fwdflat', 'no', '-bestpath', 'no', '-maxhmmpf', '1500', '-maxwpf', '10', '-topn', '2'];

/** A final pass made during an utterance's trailing silence, kept until the utterance closes or speech resumes. */
interface EarlyFinal {
  /** The utterance's speech end it was made for (new speech voids it). */
  speechEnd: number;
  words: Word[];
}

/** When the samples of a chunk arrived: pairs of (sample count, wall-clock ms) in stream order. */
export type Arrivals = readonly number[];

/** A stretch of an utterance whose final pass was shed: its words are the incremental decoder's. */
export interface ShedSpan {
  start: number;
  end: number;
}

export class StreamDecoder {
  private readonly lib: PocketSphinxLib;
  /** The incremental decoder (partials; the finals too in `live` mode); none when no partials are wanted. */
  private readonly decoder: Pointer | undefined;
  private readonly endpointer: Endpointer;
  /** The open utterance's latest hypothesis (what the last partial showed). */
  private lastHyp: string | undefined;
  private closed = false;
  /** Whether finals are decoded again on the batch decoder ('phrases', 'rescored'). */
  private readonly passes: boolean;

  /** The open utterance's audio (for the final pass), as fed, from its start. */
  private heard: Int16Array[] = [];
  private heardSamples = 0;
  /** Stream seconds at which `heard` begins (the utterance's start, later the open phrase's). */
  private heardFrom = 0;
  /** 'phrases': the words of the open utterance's phrases already decoded, and where the open phrase starts. */
  private phraseWords: Word[] = [];
  private phraseStart = 0;
  /** End of the decoded phrases' stretch: a word of the open phrase ending before it was theirs. */
  private phraseOverlapEnd = 0;
  private early: EarlyFinal | undefined;
  /** Seconds of the open utterance the latest early final pass decoded (0: none yet). */
  private earlySeconds = 0;
  /** Seconds of final-pass work per second of audio in this stream, as measured (a start value until then). */
  private finalRtf: number;
  /** Shed stretches of the open utterance (filled with the incremental decoder's words at the close). */
  private shed: ShedSpan[] = [];
  /** Arrival times of the audio heard: [end sample (exclusive), wall-clock ms] per chunk, oldest first. */
  private arrivals: [number, number][] = [];
  private firstArrival: number | undefined;
  private samplesIn = 0;
  /** 'none': the incremental decoder's words of the utterances ended since the last step. */
  private liveWords: NonNullable<StreamStep['liveFinals']> = [];
  /** Whether finals may come before their utterance ends (stable prefixes, 'phrases' and no shedding). */
  private readonly prefixes: boolean;
  /** The open utterance: where its next final starts, the end of its last word sent, and how many were sent. */
  private finalFrom = 0;
  private sentEnd = -Infinity;
  private sent: Word[] = [];
  /** The latest prefix pass over the open phrase, and the heard seconds it was made at. */
  private prefixPrev: PrefixPass | undefined;
  private prefixAt = 0;
  /** Final-pass work so far (bench/stream-prefix-cost.ts). */
  readonly cost: PassCost = { passes: 0, frames: 0, prefixPasses: 0, prefixFrames: 0 };

  constructor(
    private readonly model: PocketSphinxModel,
    private readonly vad: VadParams,
    private readonly finals: FinalPass = 'phrases',
    partials = true,
    /** How long after (utterance end + uttmaxsilence) a final may come before its pass is shed (Infinity: never). */
    private readonly deadlineMs = Infinity,
    /** Seconds from a word's end to the final holding it (stable-prefix finals; Infinity: at the utterance's end). */
    private readonly maxDelay = Infinity,
    private readonly tuning: PrefixTuning = PREFIX_TUNING,
  ) {
    this.lib = loadPocketSphinx();
    this.finalRtf = tuning.rtf ?? threadRtf;
    checkModelFiles(model);
    this.passes = finals === 'phrases' || finals === 'rescored';
    // Shedding (an explicit low-latency mode) leaves holes a prefix could not be agreed over.
    this.prefixes = finals === 'phrases' && Number.isFinite(maxDelay) && maxDelay > 0 && !Number.isFinite(deadlineMs);
    // Rescored finals without partials need no incremental decoding at all.
    if (partials || finals === 'live') {
      // Its running cepstral mean starts from a typical one for the model's band (cmnSeed.ts), not the model's
      // cold default: a stream's first utterance then decodes as well as its later ones.
      const config = this.lib.parseConfig([...decoderArgs(model), ...cmnSeedArgs(model), ...(finals !== 'live' ? PARTIALS_ONLY_ARGS : [])]);
      try {
        this.decoder = this.lib.init(config);
      } finally {
        this.lib.freeConfig(config);
      }
    }
    this.endpointer = new Endpointer(vad, model.sampleRate);
    // This thread's batch decoder for the final pass, loaded now rather than at the stream's first final.
    if (this.passes) decodeWarm(model, new Int16Array(0));
  }

  /** One chunk of the channel (any length), and when its parts arrived (see Arrivals; none: never shed). */
  accept(samples: Int16Array, arrivals?: Arrivals): StreamStep {
    const t0 = performance.now();
    this.noteArrivals(samples.length, arrivals);
    const finals = this.run(this.endpointer.push(samples));
    const partial = this.partial();
    if (this.passes) this.maybeFinalEarly();
    if (this.prefixes) finals.push(...this.maybePrefix());
    return { finals, ...(partial && { partial }), ...this.takeLiveWords(), heardSeconds: this.endpointer.heardSeconds, decodeSeconds: (performance.now() - t0) / 1000 };
  }

  /** End of the channel: the open utterance ends. */
  finish(): StreamStep {
    const t0 = performance.now();
    const finals = this.run(this.endpointer.finish());
    return { finals, ...this.takeLiveWords(), heardSeconds: this.endpointer.heardSeconds, decodeSeconds: (performance.now() - t0) / 1000 };
  }

  private takeLiveWords(): Pick<StreamStep, 'liveFinals'> {
    if (this.liveWords.length === 0) return {};
    const liveFinals = this.liveWords;
    this.liveWords = [];
    return { liveFinals };
  }

  free(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.decoder === undefined) return;
    if (this.lastHyp !== undefined) this.lib.endUtt(this.decoder);
    this.lib.free(this.decoder);
  }

  private noteArrivals(length: number, arrivals: Arrivals | undefined): void {
    if (!arrivals || arrivals.length < 2) {
      this.samplesIn += length;
      return;
    }
    this.firstArrival ??= arrivals[1];
    for (let i = 0; i + 1 < arrivals.length; i += 2) {
      this.samplesIn += arrivals[i];
      this.arrivals.push([this.samplesIn, arrivals[i + 1]]);
    }
    const keepFrom = this.samplesIn - ARRIVALS_KEPT_SECONDS * this.model.sampleRate;
    while (this.arrivals.length > 1 && this.arrivals[0][0] < keepFrom) this.arrivals.shift();
  }

  /** When stream time `seconds` arrived (wall-clock ms), never earlier than real-time pace from the first chunk. */
  private arrivedAt(seconds: number): number | undefined {
    if (this.firstArrival === undefined) return undefined;
    const sample = seconds * this.model.sampleRate;
    const known = this.arrivals.find(([end]) => end >= sample)?.[1] ?? this.arrivals[this.arrivals.length - 1]?.[1] ?? this.firstArrival;
    return Math.max(known, this.firstArrival + seconds * 1000);
  }

  /**
   * Whether a pass over `seconds` of audio, for speech that ended at `speechEnd`, would end after the final is
   * due. A shed pass relaxes the speed estimate toward the idle figure, so passes resume when the load falls.
   */
  private late(speechEnd: number, seconds: number): boolean {
    if (!Number.isFinite(this.deadlineMs) || this.finals !== 'phrases') return false;
    const arrived = this.arrivedAt(speechEnd);
    if (arrived === undefined) return false;
    const late = Date.now() + this.finalRtf * seconds * 1000 > arrived + this.vad.uttmaxsilence + this.deadlineMs;
    if (late && this.tuning.rtf === undefined) this.finalRtf = 0.8 * this.finalRtf + 0.2 * threadRtf;
    return late;
  }

  private run(events: EndpointEvent[]): StreamStep['finals'] {
    const finals: StreamStep['finals'] = [];
    for (const event of events) {
      if (event.kind === 'open') {
        this.heardFrom = event.start;
        // A new stream per utterance restarts the frame count (word times are from the utterance's start, as
        // readSegments reads them); the cepstral mean carries over.
        if (this.decoder !== undefined && (this.lib.startStream(this.decoder) < 0 || this.lib.startUtt(this.decoder) < 0)) throw new Error('PocketSphinx could not start an utterance');
        this.lastHyp = '';
        this.heard = [];
        this.heardSamples = 0;
        this.phraseWords = [];
        this.phraseStart = event.start;
        this.phraseOverlapEnd = 0;
        this.early = undefined;
        this.earlySeconds = 0;
        this.shed = [];
        this.finalFrom = event.start;
        this.sentEnd = -Infinity;
        this.sent = [];
        this.prefixPrev = undefined;
        this.prefixAt = event.start;
      } else if (event.kind === 'audio') this.process(event.samples);
      else {
        const final = this.close(event);
        if (final) finals.push(final);
      }
    }
    return finals;
  }

  private process(samples: Int16Array): void {
    if (this.passes) {
      this.heard.push(samples.slice());
      this.heardSamples += samples.length;
    }
    if (this.decoder === undefined) return;
    // Live mode (full_utt = false): the cepstral mean is estimated as the audio comes, not over the utterance.
    if (this.lib.processRaw(this.decoder, samples, false, false) < 0) throw new Error('PocketSphinx failed to process audio');
  }

  private partial(): StreamStep['partial'] | undefined {
    if (this.lastHyp === undefined || this.decoder === undefined) return undefined;
    const hyp = (this.lib.getHyp(this.decoder) ?? '').trim();
    if (hyp === this.lastHyp) return undefined;
    this.lastHyp = hyp;
    const words = hyp.split(/\s+/).filter(Boolean).map(cleanWord).filter((w): w is string => w !== null);
    // After a prefix final, the partial is of the rest (by word count: the partials decoder's words are untimed).
    if (this.sent.length > 0) return { start: this.finalFrom, end: this.endpointer.heardSeconds, words: words.slice(this.sent.length) };
    return { start: this.endpointer.utteranceStart ?? 0, end: this.endpointer.heardSeconds, words };
  }

  /**
   * The final pass during the open utterance's trailing silence, never before uttpadding of silence (the stretch
   * batch decodes). 'phrases': at once, and speech that resumes keeps its words (the phrase is done). 'rescored':
   * timed to end before uttmaxsilence does (an estimate from this stream's measured speed); after a voided pass
   * the next waits for half as much audio again, so wasted passes cost at most about twice the final's own.
   */
  private maybeFinalEarly(): void {
    const start = this.endpointer.utteranceStart;
    const speechEnd = this.endpointer.speechEnd;
    if (start === undefined || speechEnd === undefined || this.early?.speechEnd === speechEnd) return;
    const pad = this.vad.uttpadding / 1000;
    const silence = this.endpointer.heardSeconds - speechEnd;
    if (this.finals === 'phrases') {
      // Speech resumed after the pass of a phrase: its words stand; the next phrase starts in the pause.
      if (this.early) this.endPhrase(this.early);
      if (silence < pad || speechEnd + pad - this.phraseStart < MIN_PHRASE_SECONDS) return;
      this.early = { speechEnd, words: this.phrasePass(this.phraseStart, speechEnd) };
      return;
    }
    const seconds = speechEnd + pad - start;
    const due = this.vad.uttmaxsilence / 1000 - (1.5 * this.finalRtf * seconds + 0.2);
    if (silence < Math.max(pad, due) || seconds < 1.5 * this.earlySeconds) return;
    this.earlySeconds = seconds;
    this.early = { speechEnd, words: this.finalPass(start, speechEnd) };
  }

  /**
   * A phrase decoded, and speech went on: its words are kept, the next phrase starts at its last active frame
   * (the pause, at least uttpadding long, is the next phrase's leading padding; a word the next pass finds in
   * the overlap was this one's), and the audio before that is dropped.
   */
  private endPhrase(early: EarlyFinal): void {
    this.early = undefined;
    this.phraseWords.push(...early.words.filter((w) => w.end > this.phraseOverlapEnd));
    this.moveWindow(early.speechEnd, early.speechEnd + this.vad.uttpadding / 1000);
  }

  /** The open phrase now starts at `start`; a word a later pass finds ending before `overlapEnd` was decided already. */
  private moveWindow(start: number, overlapEnd: number): void {
    this.phraseStart = start;
    this.phraseOverlapEnd = overlapEnd;
    this.prefixPrev = undefined;
    const drop = Math.round((this.phraseStart - this.heardFrom) * this.model.sampleRate);
    let dropped = 0;
    while (this.heard.length > 0 && dropped + this.heard[0].length <= drop) dropped += this.heard.shift()!.length;
    this.heardSamples -= dropped;
    this.heardFrom += dropped / this.model.sampleRate;
  }

  /**
   * Stable-prefix finals (engine/stablePrefix.ts): words already decided (phrases passed in pauses) and words two
   * prefix passes over the growing open phrase agree on go out, as a final of part of the utterance, once waiting
   * for the next chance to send them would take them past maxDelay. A pass is made every prefixInterval of speech,
   * and only once the open phrase is long enough that its first words could soon be due. Past tuning.windowSeconds
   * the words sent leave the window (it restarts tuning.leadSeconds of them before the last one's end), so no
   * pass decodes much more than that.
   */
  private maybePrefix(): StepFinal[] {
    const start = this.endpointer.utteranceStart;
    const speechEnd = this.endpointer.speechEnd;
    if (start === undefined || speechEnd === undefined) return [];
    const heard = this.endpointer.heardSeconds;
    const pad = this.vad.uttpadding / 1000;
    const interval = this.tuning.intervalSeconds ?? prefixInterval(this.maxDelay);
    const decided = afterSent([...this.phraseWords, ...(this.early ? this.early.words.filter((w) => w.end > this.phraseOverlapEnd) : [])], this.sentEnd);
    let candidates = decided;
    let known = decided;
    let nextChance: number;
    let passSeconds = 0;
    if (heard - speechEnd >= pad) {
      // In a pause: the next chance is the close (no pass then when this phrase was passed), or speech resuming.
      nextChance = Math.max(0, speechEnd + this.vad.uttmaxsilence / 1000 - heard);
      if (!this.early) passSeconds = this.finalRtf * (speechEnd + pad - this.phraseStart);
    } else {
      const open = heard - this.phraseStart;
      const estimate = this.finalRtf * (open + interval);
      const worth = open >= MIN_PHRASE_SECONDS && open + interval + estimate >= this.maxDelay - pad;
      if (worth && heard - this.prefixAt >= interval) {
        this.prefixAt = heard;
        const before = this.cost.frames;
        const passed = this.finalPass(this.phraseStart, heard - pad);
        this.cost.prefixPasses++;
        this.cost.prefixFrames += this.cost.frames - before;
        const words = afterSent(passed.filter((w) => w.end > this.phraseOverlapEnd), this.sentEnd);
        const next: PrefixPass = { from: this.phraseStart, windowEnd: heard, words };
        const agreedOpen = this.prefixPrev ? agreedCount(this.prefixPrev, next) : 0;
        this.prefixPrev = next;
        // Passes that keep disagreeing would hold words past maxDelay: a word already that old goes as this pass
        // (the longest window yet) has it, unless it lies near the window's end (it may be cut there).
        const settled = words.filter((w) => w.end <= heard - CUT_GUARD_SECONDS);
        const overdue = dueCount(settled, (w) => this.ageOf(w, heard), 0, 0, this.maxDelay);
        candidates = [...decided, ...words.slice(0, Math.max(agreedOpen, overdue))];
        known = [...decided, ...words];
      }
      nextChance = Math.max(0, this.prefixAt + interval - heard);
      passSeconds = estimate;
    }
    if (candidates.length === 0) return [];
    const due = dueCount(candidates, (w) => this.ageOf(w, heard), nextChance, passSeconds, this.maxDelay);
    const cut = safeCut(known, due, this.sent.slice(-4));
    if (cut === 0) return [];
    const words = candidates.slice(0, cut);
    const last = words[words.length - 1];
    // Words of the open phrase sent leave its window only once it is long (decided, like a passed phrase's): a
    // window cut mid-speech decodes the words after it worse (jfk.wav's first utterance 82% against batch at
    // maxDelay 4 when every prefix moved it), so below tuning.windowSeconds the window keeps its start in the
    // pause and the words sent are only dropped from later passes (afterSent).
    if (cut > decided.length && heard - this.phraseStart > this.tuning.windowSeconds) {
      this.phraseWords.push(...words.slice(decided.length));
      const lead = [...this.sent, ...words].filter((x) => x.start <= last.end - this.tuning.leadSeconds).at(-1)?.start ?? this.phraseStart;
      this.moveWindow(Math.max(this.phraseStart, lead), last.end + 0.05);
    }
    const final: StepFinal = { start: round3(this.finalFrom), end: last.end, words, prefix: { utteranceStart: start, words: this.sent.length + words.length } };
    this.sent.push(...words);
    this.sentEnd = last.end;
    this.finalFrom = last.end;
    // The next pass is compared with this one's words after those sent (both start there).
    if (this.prefixPrev) this.prefixPrev = { ...this.prefixPrev, words: afterSent(this.prefixPrev.words, this.sentEnd) };
    return [final];
  }

  /** How long ago a word ended (s): by when its audio arrived when known, else by the audio heard since. */
  private ageOf(word: Word, heard: number): number {
    const arrived = this.arrivedAt(word.end);
    return arrived === undefined ? heard - word.end : Math.max(heard - word.end, (Date.now() - arrived) / 1000);
  }

  /** A phrase's pass, or (too late for its final) none: the stretch is shed and its words come later. */
  private phrasePass(start: number, speechEnd: number): Word[] {
    const end = speechEnd + this.vad.uttpadding / 1000;
    if (!this.late(speechEnd, end - start)) return this.finalPass(start, speechEnd);
    this.shed.push({ start: round3(start), end: round3(end) });
    return [];
  }

  /** A stretch of the open utterance (`start` to the speech end + uttpadding) decoded whole, as batch decodes it. */
  private finalPass(start: number, speechEnd: number): Word[] {
    const rate = this.model.sampleRate;
    const skip = Math.max(0, Math.round((start - this.heardFrom) * rate));
    const length = Math.max(0, Math.min(this.heardSamples - skip, Math.round((speechEnd + this.vad.uttpadding / 1000 - start) * rate)));
    const audio = new Int16Array(length);
    let at = 0;
    let skipped = 0;
    for (const h of this.heard) {
      if (at >= length) break;
      const from = Math.min(h.length, Math.max(0, skip - skipped));
      skipped += from;
      const part = h.subarray(from, Math.min(h.length, from + length - at));
      audio.set(part, at);
      at += part.length;
    }
    this.cost.passes++;
    this.cost.frames += Math.round((length / rate) * 100);
    const t0 = performance.now();
    const { words } = decodeWarm(this.model, audio);
    const seconds = length / rate;
    if (seconds >= 1) {
      const rtf = (performance.now() - t0) / 1000 / seconds;
      if (this.tuning.rtf === undefined) this.finalRtf = 0.7 * this.finalRtf + 0.3 * rtf;
      threadRtf = 0.8 * threadRtf + 0.2 * rtf;
    }
    return words.map((w) => ({ ...w, start: round3(w.start + start), end: round3(w.end + start) }));
  }

  /** 'phrases' at the close: the decoded phrases' words and the last phrase's (decoded now unless it was already). */
  private lastPhrase(early: EarlyFinal | undefined, speechEnd: number): Word[] {
    if (early && early.speechEnd !== speechEnd) this.endPhrase(early);
    const last = early?.speechEnd === speechEnd ? early.words : speechEnd > this.phraseStart ? this.phrasePass(this.phraseStart, speechEnd) : [];
    const words = [...this.phraseWords, ...last.filter((w) => w.end > this.phraseOverlapEnd)];
    this.phraseWords = [];
    this.phraseOverlapEnd = 0;
    return words;
  }

  private close(event: Extract<EndpointEvent, { kind: 'close' }>): StepFinal | undefined {
    const shown = this.lastHyp;
    this.lastHyp = undefined;
    if (this.decoder !== undefined && this.lib.endUtt(this.decoder) < 0) throw new Error('PocketSphinx could not end an utterance');
    const { start, end, noise, speechEnd } = event;
    const early = this.early;
    this.early = undefined;
    // The partials half of a split channel: its own words, for the finals half's shed stretches (streamPool.ts).
    if (this.finals === 'none') {
      if (!noise && this.decoder !== undefined) this.liveWords.push({ start, end, words: readSegments(this.lib, this.decoder, start, end) });
      return undefined;
    }
    // Too little speech to be an utterance (a click, a breath): nothing final, unless a partial was shown,
    // which the final must then replace.
    if (noise && shown === '') return undefined;
    if (noise) return { start, end, words: [] };
    if (this.finals === 'live') return { start, end, words: readSegments(this.lib, this.decoder!, start, end) };
    let words = this.finals === 'phrases' ? this.lastPhrase(early, speechEnd) : early?.speechEnd === speechEnd ? early.words : this.finalPass(start, speechEnd);
    // What prefix finals sent is not sent again: this final is the rest of the utterance, from where they ended.
    const from = this.sent.length > 0 ? this.finalFrom : start;
    if (this.sent.length > 0) words = afterSent(words, this.sentEnd);
    this.sent = [];
    this.sentEnd = -Infinity;
    this.prefixPrev = undefined;
    this.heard = [];
    this.heardSamples = 0;
    const shed = this.shed;
    this.shed = [];
    // Shed stretches get this decoder's own words when it has an incremental decoder; else the pool fills them.
    if (shed.length > 0 && this.decoder !== undefined) {
      words = fillShed(words, readSegments(this.lib, this.decoder, start, end), shed);
      return { start, end, words: clip(words, end), shedSeconds: shedSeconds(shed) };
    }
    return { start: round3(from), end, words: clip(words, end), ...(shed.length > 0 && { shed }) };
  }
}

/** A final's words with the words of `live` (another decoding of the same utterance) in its shed stretches. */
export function fillShed(words: readonly Word[], live: readonly Word[], shed: readonly ShedSpan[]): Word[] {
  const inShed = (w: Word) => shed.some((s) => (w.start + w.end) / 2 >= s.start && (w.start + w.end) / 2 < s.end);
  return [...words.filter((w) => !inShed(w)), ...live.filter(inShed)].sort((a, b) => a.start - b.start);
}

export function shedSeconds(shed: readonly ShedSpan[]): number {
  return round3(shed.reduce((s, x) => s + (x.end - x.start), 0));
}

/** Words after those sent (ending after `sentEnd`); one a later pass starts a little before it starts there. */
function afterSent(words: readonly Word[], sentEnd: number): Word[] {
  // A word sent, decoded again with its end a frame or two later, is the same word: not sent twice.
  return words.filter((w) => w.end > sentEnd + SAME_END_SECONDS && (w.start + w.end) / 2 > sentEnd).map((w) => (w.start < sentEnd ? { ...w, start: round3(sentEnd) } : w));
}

function clip(words: readonly Word[], end: number): Word[] {
  return words.filter((w) => w.start < end).map((w) => (w.end > end ? { ...w, end } : w));
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
