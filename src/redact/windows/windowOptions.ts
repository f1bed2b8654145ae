// The effective options of window finding: the defaults, with a project's cue phrases added and its bounds
// in place of the defaults' (projectConfig.cueWindows).
import type { CueWindowsConfig } from '../../schema/resources/projectConfig.js';
import { ENTITY_KINDS, type EntityKind } from '../entityKinds.js';
import { DEFAULT_HINT_WORDS, DEFAULT_LEAD_INS, DEFAULT_MAX_SECONDS, DEFAULT_REQUESTS, FALLBACK_MAX_SECONDS, type PhraseList } from './cuePhrases.js';

export interface WindowOptions {
  /** Cue windows at all (number-shaped speech is found either way). */
  cuesEnabled: boolean;
  requests: Partial<Record<EntityKind, string[]>>;
  leadIns: Partial<Record<EntityKind, string[]>>;
  /** Single words that give a following number run the context of a cue (cuePhrases.ts DEFAULT_HINT_WORDS). */
  hintWords: Partial<Record<EntityKind, string[]>>;
  /** How long after a hint word a number run still counts as answering it, in seconds. */
  hintSeconds: number;
  /** Seconds a cue window may stay open, per kind (every kind has one). */
  maxSeconds: Record<EntityKind, number>;
  /** A pause this long in the answering party's speech ends its turn. */
  silenceGapSeconds: number;
  /** Added after the last word of a turn or run (word ends are estimates). */
  padSeconds: number;
  /** The longest pause inside a number run. */
  numberGapSeconds: number;
  /** Number-like words that make a window in or right after a cue's context (or after "it's"). */
  minNumberWordsNearCue: number;
  /** Number-like words that make a window anywhere (card, account or phone length). */
  minNumberWordsAnywhere: number;
  /** Of those, at least this many must be digits as said (not look-alikes such as "for", "to"). */
  minDigitWordsAnywhere: number;
  /** Digit words as said (no look-alikes, no "hundred") in one run that make a window anywhere. */
  minDigitRunAnywhere: number;
  /** Words below this confidence inside a cue window count as the value going on (may extend it). */
  lowConfidence: number;
  /** A pause this long in a party's words ends its turn for number-dense turns (another party's speech ends it too). */
  turnGapSeconds: number;
  /** A turn with at least this many digit words as said... */
  minDenseDigits: number;
  /** ...and at least this share of its words number-like (look-alikes counted, hesitations not) is a window whole. */
  minDenseShare: number;
  /**
   * Two number windows of one channel this close (seconds apart) are one payment segment: the speech between them
   * (a short value such as a CVV, heard as nothing number-like) is redacted too. 0: never.
   */
  segmentGapSeconds: number;
  /** A hint word ("social", "card") heard from one party opens a window on the other party's next turn. */
  hintRequests: boolean;
  /**
   * A single digit word heard unsure (under `lowConfidence`) or beside a number-like word heard unsure is masked where it
   * stands (its own time only), though no run or turn rule fired: it is what the text would show of a garbled number.
   */
  strayDigits: boolean;
  /**
   * A number run's window grows to the speaker's whole turn, and a number-dense turn is a window whole (the rest of a
   * number read out in noise is heard as other words). Off for words given as text (a text job): they were not
   * misheard, and a number run masks itself (windowLevel.ts).
   */
  wholeTurns: boolean;
}

export const DEFAULT_WINDOW_OPTIONS: Readonly<WindowOptions> = Object.freeze({
  cuesEnabled: true,
  requests: copyList(DEFAULT_REQUESTS),
  leadIns: copyList(DEFAULT_LEAD_INS),
  hintWords: copyList(DEFAULT_HINT_WORDS),
  hintSeconds: 15,
  maxSeconds: Object.fromEntries(ENTITY_KINDS.map((k) => [k, DEFAULT_MAX_SECONDS[k] ?? FALLBACK_MAX_SECONDS])) as Record<EntityKind, number>,
  silenceGapSeconds: 4,
  padSeconds: 0.5,
  numberGapSeconds: 3,
  minNumberWordsNearCue: 4,
  minNumberWordsAnywhere: 8,
  minDigitWordsAnywhere: 4,
  minDigitRunAnywhere: 4,
  lowConfidence: 0.5,
  turnGapSeconds: 1.5,
  minDenseDigits: 3,
  minDenseShare: 0.4,
  segmentGapSeconds: 15,
  hintRequests: true,
  strayDigits: true,
  wholeTurns: true,
});

function copyList(list: PhraseList): Partial<Record<EntityKind, string[]>> {
  const out: Partial<Record<EntityKind, string[]>> = {};
  for (const [kind, phrases] of Object.entries(list) as [EntityKind, readonly string[]][]) out[kind] = [...phrases];
  return out;
}

function addPhrases(base: Partial<Record<EntityKind, string[]>>, extra: Partial<Record<EntityKind, string[]>> | undefined) {
  const out = copyList(base);
  for (const [kind, phrases] of Object.entries(extra ?? {}) as [EntityKind, string[] | undefined][]) {
    if (!phrases) continue;
    const have = new Set(out[kind] ?? []);
    out[kind] = [...(out[kind] ?? []), ...phrases.filter((p) => p.trim() !== '' && !have.has(p))];
  }
  return out;
}

/**
 * The options a job runs with: the defaults, the project's phrases added to them (a project cannot remove a
 * default cue), its bounds replacing the defaults' kind by kind, then any fine-tuning the caller passes.
 */
export function resolveWindowOptions(project?: CueWindowsConfig, overrides: Partial<WindowOptions> = {}): WindowOptions {
  const maxSeconds = { ...DEFAULT_WINDOW_OPTIONS.maxSeconds };
  for (const [kind, seconds] of Object.entries(project?.maxSeconds ?? {}) as [EntityKind, number | undefined][]) {
    if (typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0) maxSeconds[kind] = seconds;
  }
  return {
    ...DEFAULT_WINDOW_OPTIONS,
    cuesEnabled: project?.enabled !== false,
    requests: addPhrases(DEFAULT_WINDOW_OPTIONS.requests, project?.phrases),
    leadIns: addPhrases(DEFAULT_WINDOW_OPTIONS.leadIns, project?.leadIns),
    maxSeconds,
    ...overrides,
  };
}
