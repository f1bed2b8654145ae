// Incremental PocketSphinx decoding of one channel of a live call, inside a stream worker thread
// (engine/streamWorker.ts): PCM arrives in chunks; the energy endpointer (audio/endpointer.ts, the engine's VAD
// parameters) opens an utterance at speech (with `uttpadding` of audio before it) and ends it after
// `uttmaxsilence` of silence or `uttmaxtime` of length. Inside an utterance every chunk goes through ps_process_raw and the hypothesis so far
// (ps_get_hyp) is the partial; at its end ps_end_utt and the segment iterator give the final words with times
// and confidences. A FRESH decoder per stream channel (decoder state leaks between recordings, STACK.md); the
// utterances of one channel share it, as the stretches of one batch task do.
//
// Synchronous and CPU-bound: it runs in a worker thread, never on the event loop.
import { Endpointer, type EndpointEvent } from '../../audio/endpointer.js';
import type { VadParams } from '../../audio/vad.js';
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
  private readonly endpointer: Endpointer;
  /** The open utterance's latest hypothesis (what the last partial showed). */
  private lastHyp: string | undefined;
  private closed = false;

  /** The open utterance's audio (for the final pass), as fed. */
  private heard: Int16Array[] = [];

  constructor(
    model: PocketSphinxModel,
    vad: VadParams,
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
    this.endpointer = new Endpointer(vad, model.sampleRate);
  }

  /** One chunk of the channel (any length). */
  accept(samples: Int16Array): StreamStep {
    const t0 = performance.now();
    const finals = this.run(this.endpointer.push(samples));
    const partial = this.partial();
    return { finals, ...(partial && { partial }), heardSeconds: this.endpointer.heardSeconds, decodeSeconds: (performance.now() - t0) / 1000 };
  }

  /** End of the channel: the open utterance ends. */
  finish(): StreamStep {
    const t0 = performance.now();
    const finals = this.run(this.endpointer.finish());
    return { finals, heardSeconds: this.endpointer.heardSeconds, decodeSeconds: (performance.now() - t0) / 1000 };
  }

  free(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.lastHyp !== undefined) this.lib.endUtt(this.decoder);
    this.lib.free(this.decoder);
  }

  private run(events: EndpointEvent[]): StreamStep['finals'] {
    const finals: StreamStep['finals'] = [];
    for (const event of events) {
      if (event.kind === 'open') {
        if (this.lib.startUtt(this.decoder) < 0) throw new Error('PocketSphinx could not start an utterance');
        this.lastHyp = '';
      } else if (event.kind === 'audio') this.process(event.samples);
      else {
        const final = this.close(event);
        if (final) finals.push(final);
      }
    }
    return finals;
  }

  private process(samples: Int16Array): void {
    if (this.finals === 'rescored') this.heard.push(samples.slice());
    // Live mode (full_utt = false): the cepstral mean is estimated as the audio comes, not over the utterance.
    if (this.lib.processRaw(this.decoder, samples, false, false) < 0) throw new Error('PocketSphinx failed to process audio');
  }

  private partial(): StreamStep['partial'] | undefined {
    if (this.lastHyp === undefined) return undefined;
    const hyp = (this.lib.getHyp(this.decoder) ?? '').trim();
    if (hyp === this.lastHyp) return undefined;
    this.lastHyp = hyp;
    const words = hyp.split(/\s+/).filter(Boolean).map(cleanWord).filter((w): w is string => w !== null);
    return { start: this.endpointer.utteranceStart ?? 0, end: this.endpointer.heardSeconds, words };
  }

  private close(event: { start: number; end: number; noise: boolean }): { start: number; end: number; words: Word[] } | undefined {
    const shown = this.lastHyp;
    this.lastHyp = undefined;
    if (this.lib.endUtt(this.decoder) < 0) throw new Error('PocketSphinx could not end an utterance');
    const { start, end, noise } = event;
    const heard = this.heard;
    this.heard = [];
    // Too little speech to be an utterance (a click, a breath): nothing final, unless a partial was shown,
    // which the final must then replace.
    if (noise && shown === '') return undefined;
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
