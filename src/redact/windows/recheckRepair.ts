// The repair step of the re-recognition check: what the recognizer heard again in a redacted copy that still
// sounds like a number becomes a stretch to redact (the word's time plus a margin, on its channel), so the job
// redacts more and checks again instead of failing at once. Only kinds and times leave here, never a word.
import type { Transcript } from '../../transcript/types.js';
import { digitCount, numberRuns, numberWordClass } from './numberSpeech.js';
import { isDigitWord } from './report.js';

/** What a word heard again was, as a kind (the word itself is never kept). */
export type HeardKind = 'digit' | 'number' | 'homophone';

/** Where it was heard, against the windows redacted so far on its channel. */
export type HeardWhere = 'inside' | 'beside' | 'elsewhere';

/** A stretch of one channel widened because something number-like was heard there again. */
export interface WidenedStretch {
  channel: number;
  start: number;
  end: number;
  /** The number-like words heard in it, counted by kind. */
  heard: Partial<Record<HeardKind, number>>;
  /** Where, against the windows redacted before it: the nearest of inside, beside, elsewhere. */
  where: HeardWhere;
}

export interface RepairOptions {
  /** Seconds added on each side of a heard word (the recognizer's times are loose at a muted edge). */
  margin?: number;
  /** A word this close (s) to a redacted window counts as beside it. */
  beside?: number;
  /** The recording's length: no stretch runs past it. */
  duration?: number;
}

/** Seconds added on each side of a word heard again. */
export const RECHECK_MARGIN = 0.3;
/** A word heard again this close (s) to a window already redacted is beside it. */
export const RECHECK_BESIDE = 1;

interface Timed {
  channel: number;
  start: number;
  end: number;
}

/** The kind of a heard word that counts for the check, or undefined for an ordinary word. */
export function heardKind(word: string): HeardKind | undefined {
  if (isDigitWord(word)) return 'digit';
  const cls = numberWordClass(word);
  if (cls === 'digit') return 'number';
  if (cls === 'lookalike') return 'homophone';
  return undefined;
}

function whereOf(start: number, end: number, windows: readonly Timed[], beside: number): HeardWhere {
  const middle = (start + end) / 2;
  if (windows.some((w) => middle >= w.start && middle <= w.end)) return 'inside';
  if (windows.some((w) => start < w.end + beside && end > w.start - beside)) return 'beside';
  return 'elsewhere';
}

/** What one check heard that counts: stretches to widen, and lone digits far from any window (not widened). */
export interface HeardAgain {
  stretches: WidenedStretch[];
  /** Single digit or number words heard far from every redacted window and every other number word ("this one", "oh"). */
  lone: number;
}

/** A pause longer than this (s) ends a number read out (as number-speech windows count runs). */
const RUN_GAP_SECONDS = 3;

/**
 * What to widen after hearing `heard` (the redacted copy recognized again) against `windows` (everything redacted
 * so far). Inside or beside a redacted window, every digit, number word and digit homophone ("for", "to", "won")
 * is widened over: a number was said there. Elsewhere a number still said is widened over — two or more number
 * words in a run (a homophone joins a run that has a digit), or a numeral of two or more digits — while a lone
 * digit or number word far from everything ("this one", "oh", "twenty minutes") cannot carry a value: it is
 * counted, not widened. Stretches
 * of one channel that touch are merged.
 */
export function stretchesToWiden(heard: Transcript, windows: readonly Timed[], options: RepairOptions = {}): HeardAgain {
  const margin = options.margin ?? RECHECK_MARGIN;
  const beside = options.beside ?? RECHECK_BESIDE;
  const duration = options.duration && options.duration > 0 ? options.duration : Infinity;
  const out: WidenedStretch[] = [];
  let lone = 0;
  for (const channel of heard.channels) {
    const mine = windows.filter((w) => w.channel === channel.channel);
    const words = [...channel.words].sort((a, b) => a.start - b.start);
    // Each word of a run of two or more number words: the run it belongs to.
    const inRun = new Map<number, { start: number; end: number }>();
    for (const run of numberRuns(words, { maxGapSeconds: RUN_GAP_SECONDS })) {
      if (run.length < 2) continue;
      for (let i = run.first; i <= run.last; i++) inRun.set(i, run);
    }
    const found: WidenedStretch[] = [];
    words.forEach((word, i) => {
      const kind = heardKind(word.word);
      if (!kind) return;
      const where = whereOf(word.start, word.end, mine, beside);
      let span: { start: number; end: number } = word;
      if (where === 'elsewhere') {
        const run = inRun.get(i);
        if (run) span = run;
        else if (kind === 'homophone') return;
        else if (digitCount(word.word) < 2) {
          lone++;
          return;
        }
      }
      found.push({ channel: channel.channel, start: Math.max(0, span.start - margin), end: Math.min(duration, span.end + margin), heard: { [kind]: 1 }, where });
    });
    found.sort((a, b) => a.start - b.start);
    for (const s of found) {
      const last = out[out.length - 1];
      if (last && last.channel === s.channel && s.start <= last.end) {
        last.end = Math.max(last.end, s.end);
        for (const [kind, n] of Object.entries(s.heard) as [HeardKind, number][]) last.heard[kind] = (last.heard[kind] ?? 0) + n;
        last.where = RANK[s.where] < RANK[last.where] ? s.where : last.where;
      } else {
        out.push(s);
      }
    }
  }
  return { stretches: out, lone };
}

const RANK: Record<HeardWhere, number> = { inside: 0, beside: 1, elsewhere: 2 };
