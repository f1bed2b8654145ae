// The re-recognition check of a job's redacted copy, with repair: the copy is recognized again, and what still
// sounds like a number (digits and number words anywhere, digit homophones inside or beside a redacted window)
// is redacted too — its time plus a margin in the audio, the words there in the transcript — and the copy is
// checked again, for at most `rounds` widenings. Only a copy that still says a number after them fails the job,
// and the record says why (windows, stretches widened, what was heard there as kinds: never a word).
import type { RedactedSpan } from '../redact/redactTranscript.js';
import type { RedactionRule } from '../redact/rules.js';
import { type AppliedWindow, applyWindows, SENSITIVE_KIND, windowMask } from '../redact/windows/apply.js';
import { type HeardKind, stretchesToWiden, type WidenedStretch } from '../redact/windows/recheckRepair.js';
import { type RecheckReport, recheckWindows } from '../redact/windows/report.js';
import type { Transcript } from '../transcript/types.js';

/** Recognizes a file again (the redacted copy) with the model the job used. */
export type RecheckRecognizer = (file: string, model: string, signal?: AbortSignal) => Promise<Transcript>;

/** Widenings the check may make before it gives up (SCRUBLINE_RECHECK_ROUNDS). */
export const DEFAULT_RECHECK_ROUNDS = 3;

export interface CopyRecheckInput {
  recheck?: RecheckRecognizer;
  /** Widenings allowed; 0: the first digit heard fails the job. */
  rounds: number;
  copy: string;
  model: string;
  /** What was redacted (windows, entities, keypad entries): the check listens there, and beside. */
  windows: readonly AppliedWindow[];
  /**
   * The job redacts a kind said as digits (redact/numberKinds.ts): the copy is listened to even when nothing was
   * found to redact (a card number recognition missed is still a number said). Otherwise only when windows were.
   */
  numbers: boolean;
  /** The redacted transcript: widened stretches are masked in it too. */
  transcript: Transcript;
  rules: readonly RedactionRule[];
  /** Seconds of the recording. */
  duration: number;
  /** Writes the copy again with these spans added (and checks it decodes). */
  rewrite: (added: RedactedSpan[]) => Promise<void>;
  signal?: AbortSignal;
}

export interface RecheckRound {
  round: number;
  /** Words heard again that are number-like, counted by kind (kinds only). */
  heard: Partial<Record<HeardKind, number>>;
  /** Single digit words heard far from every window and every other number word: not a value, not widened. */
  loneDigits?: number;
  /** Stretches widened after this round (0 on the round that heard nothing). */
  widened: number;
}

export type RecheckRecord =
  | { checked: false }
  | (RecheckReport & {
      checked: true;
      /** True when the last check heard nothing number-like (after any widening). */
      converged: boolean;
      maxRounds: number;
      rounds: RecheckRound[];
      /** Every stretch widened, with the round that widened it. */
      widened: (WidenedStretch & { round: number })[];
      /** What the last check still heard (not converged only). */
      unrepaired?: WidenedStretch[];
    });

export interface CopyRecheckOutcome {
  transcript: Transcript;
  record: RecheckRecord;
  converged: boolean;
}

const round3 = (t: number) => Math.round(t * 1000) / 1000;
const rounded = (s: WidenedStretch): WidenedStretch => ({ ...s, heard: { ...s.heard }, start: round3(s.start), end: round3(s.end) });

/** Is every stretch already inside one widened before (the same audio, muted already: no widening helps)? */
function noProgress(stretches: readonly WidenedStretch[], before: readonly WidenedStretch[]): boolean {
  return stretches.every((s) => before.some((b) => b.channel === s.channel && s.start >= b.start - 1e-6 && s.end <= b.end + 1e-6));
}

export async function recheckAndRepair(input: CopyRecheckInput): Promise<CopyRecheckOutcome> {
  const { recheck, windows } = input;
  if (!recheck || (windows.length === 0 && !input.numbers)) return { transcript: input.transcript, record: { checked: false }, converged: true };
  let transcript = input.transcript;
  const widened: (WidenedStretch & { round: number })[] = [];
  const rounds: RecheckRound[] = [];
  for (let round = 1; ; round++) {
    const heard = await recheck(input.copy, input.model, input.signal);
    input.signal?.throwIfAborted();
    const redacted = [...windows, ...widened];
    const { stretches, lone } = stretchesToWiden(heard, redacted, { duration: input.duration });
    const counts: Partial<Record<HeardKind, number>> = {};
    for (const s of stretches) for (const [kind, n] of Object.entries(s.heard) as [HeardKind, number][]) counts[kind] = (counts[kind] ?? 0) + n;
    const converged = stretches.length === 0;
    const last = converged || round > input.rounds || noProgress(stretches, widened);
    rounds.push({ round, heard: counts, ...(lone > 0 && { loneDigits: lone }), widened: last ? 0 : stretches.length });
    if (last) {
      const record: RecheckRecord = {
        checked: true,
        converged,
        maxRounds: input.rounds,
        rounds,
        widened: widened.map((w) => ({ ...rounded(w), round: w.round })),
        ...(!converged && { unrepaired: stretches.map(rounded) }),
        ...recheckWindows(heard, redacted),
      };
      return { transcript, record, converged };
    }
    widened.push(...stretches.map((s) => ({ ...s, round })));
    // Text first: a stretch muted in the audio is masked in the transcript (every shape is rendered from it).
    transcript = applyWindows(transcript, stretches.map((s) => ({ channel: s.channel, start: s.start, end: s.end, kind: SENSITIVE_KIND })), input.rules).transcript;
    await input.rewrite(stretches.map((s) => ({ channel: s.channel, kind: SENSITIVE_KIND, start: s.start, end: s.end, replacement: windowMask(SENSITIVE_KIND, input.rules), confidence: 1 })));
    input.signal?.throwIfAborted();
  }
}
