// The windows report on a job's redaction record: how many windows each source gave, seconds redacted per
// channel, the windows themselves (channel, times, kind, source: never a value), and the re-recognition check
// of the redacted audio (digit words heard inside former windows: must be 0).
import { mergeSpans } from '../../audio/redactAudio.js';
import type { Transcript } from '../../transcript/types.js';
import type { AppliedSource, AppliedWindow } from './apply.js';

export interface WindowListItem {
  channel: number;
  start: number;
  end: number;
  kind: string;
  source: AppliedSource;
}

export interface WindowsReport {
  mode: string;
  bySource: Record<AppliedSource, number>;
  /** Seconds of audio redacted by windows, per channel (overlapping windows counted once). */
  secondsByChannel: number[];
  list: WindowListItem[];
}

export interface RecheckReport {
  /** Words heard again inside former windows that are digits or digit names (zero..nine, oh). */
  digitsInWindows: number;
  /** Words heard there that are often misrecognized digits (for, to, won, ate, double...): reported, not failed on. */
  numberLikeInWindows: number;
  /** All words heard inside former windows (a toned window may be heard as some word). */
  wordsInWindows: number;
  /** The model that listened again. */
  model: string;
}

const round = (t: number) => Math.round(t * 1000) / 1000;

export function windowsReport(windows: readonly AppliedWindow[], channels: number, duration: number, mode = 'windows'): WindowsReport {
  const bySource: Record<AppliedSource, number> = { entity: 0, cue: 0, number: 0, mark: 0, keypad: 0, insight: 0, mode: 0 };
  for (const w of windows) bySource[w.source]++;
  const merged = mergeSpans(windows, Math.max(channels, 1), duration, 0, 0);
  return {
    mode,
    bySource,
    secondsByChannel: merged.map((spans) => round(spans.reduce((s, span) => s + span.end - span.start, 0))),
    list: windows.map((w) => ({ channel: w.channel, start: round(w.start), end: round(w.end), kind: w.kind, source: w.source })),
  };
}

const DIGIT_WORDS = new Set(['zero', 'oh', 'o', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve']);
const NUMBER_LIKE = new Set(['for', 'fore', 'to', 'too', 'won', 'ate', 'nein', 'double', 'triple', 'hundred', 'thousand', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety', 'teen', 'tree', 'free', 'fife', 'niner']);

/** Is this recognized word a digit (a numeral, or a digit's name)? */
export function isDigitWord(word: string): boolean {
  const w = word.toLowerCase().replace(/[^a-z0-9]/g, '');
  return /\d/.test(w) || DIGIT_WORDS.has(w);
}

/**
 * Count what the recognizer heard again inside the windows: a word is inside when its middle is inside a window
 * on its channel (a word at the edge belongs to the speech beside the window).
 */
export function recheckWindows(heard: Transcript, windows: readonly Pick<AppliedWindow, 'channel' | 'start' | 'end'>[]): RecheckReport {
  let digits = 0;
  let numberLike = 0;
  let words = 0;
  for (const channel of heard.channels) {
    const mine = windows.filter((w) => w.channel === channel.channel);
    for (const word of channel.words) {
      const middle = (word.start + word.end) / 2;
      if (!mine.some((w) => middle >= w.start && middle <= w.end)) continue;
      words++;
      if (isDigitWord(word.word)) digits++;
      else if (NUMBER_LIKE.has(word.word.toLowerCase())) numberLike++;
    }
  }
  return { digitsInWindows: digits, numberLikeInWindows: numberLike, wordsInWindows: words, model: heard.model };
}
