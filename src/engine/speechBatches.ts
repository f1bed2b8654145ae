// How a channel is cut into decode tasks, the same for every engine: voice-activity segments (engine
// parameters; none longer than the engine's longest unit) grouped into batches of at least `batchSeconds` of
// audio, each batch a copy of its stretch of PCM that a pool worker owns — so a long mono recording uses every
// core and a stereo call decodes both channels at once.
import { detectSpeech, groupSegments, vadParamsFrom } from '../audio/vad.js';
import type { SpeechSegment, Word } from '../transcript/types.js';

export interface SpeechBatch {
  /** The batch's stretch of the channel (a copy, transferable to a worker). */
  samples: Int16Array;
  /** Stretches to recognize, seconds from the start of `samples`. */
  units: { start: number; end: number }[];
  /** Where `samples` begin in the channel (s). */
  offsetSeconds: number;
}

/**
 * Voice-activity segments closer than this (s) are decoded as one unit, pause included (up to the longest unit).
 * A number read in groups ("four four one four … two one four zero") pauses a second or more between groups: each
 * group decoded alone (its own cepstral mean over a second of audio, no context) lost digits the engine got on the
 * whole read (issue 17: a clean 15-digit read, 0 errors by the engine alone, 4 through the service).
 */
export const UNIT_GAP_SECONDS = 3;

export function speechBatches(
  samples: Int16Array,
  sampleRate: number,
  params: Record<string, unknown>,
  options: { maxUnitSeconds: number; batchSeconds: number; unitGapSeconds?: number },
): { segments: SpeechSegment[]; batches: SpeechBatch[] } {
  const vad = vadParamsFrom(params);
  const maxUnit = Math.min(vad.uttmaxtime, options.maxUnitSeconds);
  const segments = detectSpeech(samples, sampleRate, { ...vad, uttmaxtime: maxUnit });
  // Units cut only where the VAD found a pause (or, for one long stretch, at its quietest moment).
  const decodeUnits = groupSegments(segments, maxUnit, options.unitGapSeconds ?? UNIT_GAP_SECONDS);
  const batches = group(decodeUnits, options.batchSeconds).map((units) => {
    const from = Math.floor(units[0].start * sampleRate);
    const to = Math.min(samples.length, Math.ceil(units[units.length - 1].end * sampleRate));
    const offsetSeconds = from / sampleRate;
    return {
      samples: samples.slice(from, to),
      units: units.map((u) => ({ start: u.start - offsetSeconds, end: u.end - offsetSeconds })),
      offsetSeconds,
    };
  });
  return { segments, batches };
}

/** Consecutive segments grouped so each group spans at least `seconds` of audio (the last may be shorter). */
function group<T extends { start: number; end: number }>(segments: T[], seconds: number): T[][] {
  const out: T[][] = [];
  let current: T[] = [];
  for (const seg of segments) {
    current.push(seg);
    if (current[current.length - 1].end - current[0].start >= seconds) {
      out.push(current);
      current = [];
    }
  }
  if (current.length > 0) out.push(current);
  return out;
}

/** Words in time order with no overlap (a decoder may end a word a frame after the next begins). */
export function monotonic(words: Word[]): Word[] {
  words.sort((a, b) => a.start - b.start || a.end - b.end);
  for (let i = 1; i < words.length; i++) {
    const prev = words[i - 1];
    if (words[i].start < prev.end) prev.end = Math.max(prev.start, words[i].start);
  }
  return words;
}
