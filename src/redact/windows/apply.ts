// Applying sensitive windows to a redacted transcript: every word of the window's channel that overlaps the
// window becomes the kind's mask (a run of them one mask word, as keypad masking does), and the window's whole
// time becomes an audio span on that channel, whether or not any word was recognized there. Redaction only
// grows: the spans returned are added to the core's, never put in their place.
import type { RedactedSpan } from '../redactTranscript.js';
import { defaultLabel, type RedactionRule } from '../rules.js';
import type { Transcript, Word } from '../../transcript/types.js';
import type { SensitiveWindow, WindowSource } from './types.js';

/** Where a window applied by a project's window mode (modes.ts) came from: the mode, not a finder. */
export type AppliedSource = WindowSource | 'mode';

/** A window as applied: a finder's, a mark's, a keypad entry's, or one a window mode added. */
export type AppliedWindow = Omit<SensitiveWindow, 'source'> & { source: AppliedSource };

/** The kind a window stands for when nothing more precise is known. */
export const SENSITIVE_KIND = 'SENSITIVE';

/**
 * The text that replaces a window's words: the policy's Placeholder for the kind when it has one, '' when the
 * kind's rule removes, four of its mask character for MaskCharacter (a fixed length: the value's is not known),
 * else the kind's default label. Masks that need the value (Hash, EntityIndex) get the label: a window's words
 * are not the value, only where it was said.
 */
export function windowMask(kind: string, rules: readonly RedactionRule[]): string {
  const rule = rules.find((r) => r.kind === kind);
  if (rule?.maskType === 'Placeholder') return rule.setting;
  if (rule?.maskType === 'Remove') return '';
  // A project's own mask stays its mask where a default number window covers the value (issue 31).
  if (rule?.maskType === 'MaskCharacter' && [...rule.setting].length === 1) return rule.setting.repeat(4);
  return defaultLabel(kind);
}

export interface WindowApplication {
  transcript: Transcript;
  /** One span per window (its whole time, grown over the words it masked), kind and times only. */
  spans: RedactedSpan[];
  /** Words masked by windows (including words the core had masked already). */
  maskedWords: number;
}

/** Windows clipped to the recording and to the channels it has; empty ones dropped. */
export function clipWindows<W extends AppliedWindow>(windows: readonly W[], duration: number): W[] {
  return windows
    .map((w) => ({ ...w, start: Math.max(0, w.start), end: duration > 0 ? Math.min(duration, w.end) : w.end }))
    .filter((w) => w.end > w.start);
}

/**
 * Mask the words inside `windows` (each on its own channel) and answer a span for each window. Words that
 * overlap a window at all are masked: a word cut by the window's edge is part of what was said in it.
 */
export function applyWindows(transcript: Transcript, windows: readonly Pick<AppliedWindow, 'channel' | 'start' | 'end' | 'kind'>[], rules: readonly RedactionRule[]): WindowApplication {
  const spans: RedactedSpan[] = windows.map((w) => ({ channel: w.channel, kind: w.kind, start: w.start, end: w.end, replacement: windowMask(w.kind, rules), confidence: 1 }));
  if (spans.length === 0) return { transcript, spans, maskedWords: 0 };
  let maskedWords = 0;
  const channels = transcript.channels.map((channel) => {
    // Against the windows' own times: a span grown over a word must not reach on to the next word.
    const mine = windows.map((w, i) => ({ w, span: spans[i] })).filter((m) => m.w.channel === channel.channel);
    if (mine.length === 0) return channel;
    const hit = (word: Word) => mine.find((m) => word.start < m.w.end && word.end > m.w.start)?.span;
    const words: Word[] = [];
    let run: { word: Word; span: RedactedSpan } | undefined;
    for (const w of channel.words) {
      const span = hit(w);
      if (!span) {
        run = undefined;
        words.push(w);
        continue;
      }
      maskedWords++;
      span.start = Math.min(span.start, w.start);
      span.end = Math.max(span.end, w.end);
      if (span.replacement === '') continue; // Remove: the words go, the audio span stays.
      if (run && run.span === span) {
        run.word.end = Math.max(run.word.end, w.end);
      } else {
        run = { word: { word: span.replacement, start: w.start, end: w.end, confidence: 1 }, span };
        words.push(run.word);
      }
    }
    return { ...channel, words };
  });
  return { transcript: { ...transcript, channels }, spans, maskedWords };
}
