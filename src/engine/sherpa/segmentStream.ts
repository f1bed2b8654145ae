// A live channel on an OFFLINE sherpa-onnx model (Whisper, NeMo CTC, offline transducers, ...), which cannot
// decode audio as it comes: streaming is simulated. The energy endpointer (audio/endpointer.ts, the engine's VAD
// parameters, as PocketSphinx streams use) cuts the channel into utterances; each ended utterance is decoded
// whole by the offline recognizer — the same decode as a batch job's (sherpa/decode.ts: token word times, or
// alignment for models without them) — and is the final. Partials re-decode the growing utterance at a bounded
// rate: once at least PARTIAL_MIN_SECONDS and a quarter of its length have arrived since the last one, so the
// partials of an utterance cost about four decodes of it in all, however long it gets (their delay grows with it).
//
// Synchronous and CPU-bound: a stream worker thread (engine/streamWorker.ts), never the event loop.
import { Endpointer, type EndpointEvent } from '../../audio/endpointer.js';
import type { VadParams } from '../../audio/vad.js';
import type { PocketSphinxModel } from '../pocketsphinx/decoder.js';
import type { StreamStep } from '../pocketsphinx/streamDecoder.js';
import { decodeSherpa } from './decode.js';
import type { SherpaModelSpec } from './modelFolder.js';
import { SHERPA_SAMPLE_RATE } from './recognizerConfig.js';

const PARTIAL_MIN_SECONDS = 0.5;
const PARTIAL_GROWTH = 0.25;

export class SegmentStreamDecoder {
  private readonly endpointer: Endpointer;
  /** The open utterance's audio; undefined while none is open. */
  private utterance: { parts: Int16Array[]; samples: number; decodedAt: number; shown: string } | undefined;

  constructor(
    private readonly model: string,
    private readonly spec: SherpaModelSpec,
    vad: VadParams,
    private readonly align?: PocketSphinxModel,
    maxUtteranceSeconds = vad.uttmaxtime,
  ) {
    // An utterance is decoded as one unit: no longer than the model takes (Whisper: under 30 s).
    this.endpointer = new Endpointer({ ...vad, uttmaxtime: Math.min(vad.uttmaxtime, maxUtteranceSeconds) }, SHERPA_SAMPLE_RATE);
  }

  accept(samples: Int16Array): StreamStep {
    const t0 = performance.now();
    const finals = this.run(this.endpointer.push(samples));
    const partial = this.partial();
    return { finals, ...(partial && { partial }), heardSeconds: this.endpointer.heardSeconds, decodeSeconds: (performance.now() - t0) / 1000 };
  }

  finish(): StreamStep {
    const t0 = performance.now();
    const finals = this.run(this.endpointer.finish());
    return { finals, heardSeconds: this.endpointer.heardSeconds, decodeSeconds: (performance.now() - t0) / 1000 };
  }

  free(): void {
    this.utterance = undefined;
  }

  private run(events: EndpointEvent[]): StreamStep['finals'] {
    const finals: StreamStep['finals'] = [];
    for (const event of events) {
      if (event.kind === 'open') this.utterance = { parts: [], samples: 0, decodedAt: 0, shown: '' };
      else if (event.kind === 'audio') {
        this.utterance!.parts.push(event.samples.slice());
        this.utterance!.samples += event.samples.length;
      } else {
        const u = this.utterance!;
        this.utterance = undefined;
        // Too little speech to be an utterance: nothing final, unless a partial was shown (the final replaces it).
        if (event.noise && u.shown === '') continue;
        const words = event.noise ? [] : this.decode(u).map((w) => ({ ...w, start: round3(w.start + event.start), end: round3(w.end + event.start) }));
        finals.push({ start: event.start, end: event.end, words });
      }
    }
    return finals;
  }

  private decode(u: NonNullable<SegmentStreamDecoder['utterance']>) {
    const pcm = new Int16Array(u.samples);
    let at = 0;
    for (const p of u.parts) {
      pcm.set(p, at);
      at += p.length;
    }
    u.parts = [pcm];
    return decodeSherpa(this.model, this.spec, pcm, [{ start: 0, end: pcm.length / SHERPA_SAMPLE_RATE }], this.align).words;
  }

  private partial(): StreamStep['partial'] | undefined {
    const u = this.utterance;
    if (!u) return undefined;
    const fresh = u.samples - u.decodedAt;
    if (fresh < PARTIAL_MIN_SECONDS * SHERPA_SAMPLE_RATE || fresh < PARTIAL_GROWTH * u.samples) return undefined;
    u.decodedAt = u.samples;
    const words = this.decode(u).map((w) => w.word);
    const text = words.join(' ');
    if (text === u.shown) return undefined;
    u.shown = text;
    return { start: this.endpointer.utteranceStart ?? 0, end: this.endpointer.heardSeconds, words };
  }
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
