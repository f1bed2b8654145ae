// Redaction across the messages of a live conversation (POST /cache/real-call): each message is answered at once,
// so a number said across messages ("my card number is 4532 0151" | "1283 0366" | "8741") must be dealt with
// message by message, with what the conversation kept so far. Detection is the one stream core (streams.ts):
// - the speaker's earlier messages, as kept (redacted: whatever they still show in clear is what a later message
//   can complete), and this one are searched as one stream; a span reaching back into an earlier message
//   re-redacts it (its kept row is rewritten);
// - a message cannot be recalled once answered, so the digits that may begin a number are never answered: a
//   message ending in a digit group (written, look-alikes folded, or two spoken digit words or more) has that
//   group masked, and the next message of the speaker that begins with digits has its leading group masked too
//   (it continues the number). This is the live stream's hold (stream/liveRedactor.ts) for a transport that
//   cannot wait: redact more, never less. The group is masked as the kind a number cue of the speaker's messages
//   names ("my card number is": numberCues.ts, words counted as seconds), else as the kind the group it
//   continues was masked as, else as the numeric kind that fits its length.
import type { Masker } from './masks.js';
import { docFromText } from './recognizers/doc.js';
import type { RedactionRule } from './rules.js';
import { partMask, textStreamSpans } from './streams.js';
import { type NumberRun, numberRuns, numberWordClass } from './windows/numberSpeech.js';
import { NumberCues } from './numberCues.js';

/** The fewest digits of a group a number cue masks wherever it stands in the message. */
const CUED_DIGITS = 3;

/** Earlier messages of the speaker searched with a new one (a number is read in a few messages, not dozens). */
export const CONTEXT_MESSAGES = 8;

export interface MessageRedaction {
  /** This message's text, redacted across the conversation. */
  text: string;
  /** New texts of the earlier messages a span reached back into (undefined: unchanged), same order as given. */
  earlier: (string | undefined)[];
  /**
   * The kind this message's last digit group was masked as, when it ends in one: the speaker's next message
   * continues it if it begins with digits. Undefined: it does not.
   */
  held?: string;
  /** Kinds masked by this step (never the values). */
  kinds: string[];
}

interface Cut {
  start: number;
  end: number;
  replacement: string;
}

/** A bracketed mask ("[PERSON]", "[PERSON_2]", "[PERSON:3f9a...]"): never read as words again. */
const BRACKETED = /\[[^[\]\s]{1,80}\]/g;

/**
 * `text` as detection reads it: the masks already in it (bracketed ones, the rules' placeholders, runs of their
 * mask characters) blanked to "_" of the same length, so that a mask's label is never taken for a name or an
 * address ("[PERSON]" after "my name is") and offsets stay those of the kept text.
 */
function masksBlanked(text: string, rules: readonly RedactionRule[]): string {
  const blank = (m: string) => ' '.repeat(m.length);
  let out = text.replace(BRACKETED, blank);
  for (const rule of rules) {
    if (rule.maskType === 'Placeholder' && rule.setting.trim()) out = out.split(rule.setting).join(blank(rule.setting));
    if (rule.maskType === 'MaskCharacter') {
      const char = rule.setting.charAt(0) || '*';
      out = out.replace(new RegExp(`${char.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}{2,}`, 'gu'), blank);
    }
  }
  return out;
}

/** `text` with cuts (disjoint, any order) applied. */
function applyCuts(text: string, cuts: Cut[]): string {
  let out = '';
  let at = 0;
  for (const cut of [...cuts].sort((a, b) => a.start - b.start)) {
    if (cut.start < at) continue;
    out += text.slice(at, cut.start) + cut.replacement;
    at = cut.end;
  }
  return out + text.slice(at);
}

/** Kinds said as digits: while one is redacted, digit groups at a message's edges are masked. `named`: a cue's kind. */
function digitRule(rules: readonly RedactionRule[], digits: number, named?: string): RedactionRule | undefined {
  const by = (kind: string | undefined) => rules.find((r) => r.kind === kind);
  return by(named) ?? (digits >= 13 ? by('CreditCardNumber') : undefined) ?? by('USSocialSecurityNumber') ?? by('CreditCardNumber') ?? rules.find((r) => r.kind !== 'Person' && r.kind !== 'Email');
}

/**
 * The digit groups of `text` (the last of `pieces`) that may not be answered, masked: the one ending it, the one
 * beginning it when `continues` names the kind of the group it continues, every one a number cue of the speaker
 * covers (a live stream's cued digits), and, in a partial, every one. Masks already in the text are read as
 * nothing (a group with a mask after it still ends the message). Answers the kind the end group was masked as.
 */
function maskEdgeDigits(pieces: readonly string[], rules: readonly RedactionRule[], masker: Masker, continues: string | undefined, kinds: Set<string>, partial: boolean): { text: string; held?: string } {
  const text = pieces[pieces.length - 1];
  const doc = docFromText(masksBlanked(text, rules));
  const words = doc.words.map((w, i) => ({ word: w.raw, start: i, end: i + 1 }));
  // Cues heard in this message and the speaker's one before, words counted as seconds (the cue's bound in words).
  const cues = new NumberCues(rules.map((r) => r.kind));
  const before = pieces.slice(-2, -1).flatMap((p) => docFromText(masksBlanked(p, rules)).words.map((w) => w.raw));
  if (cues.listening) cues.hear(0, [...before, ...words.map((w) => w.word)].map((word, i) => ({ word, start: i, end: i + 1 })));
  const cueAt = (word: number) => cues.kindAt(before.length + word);
  // A gap of more than one word ends a run (fillers inside are allowed by numberRuns).
  const runs = numberRuns(words, { maxGapSeconds: 1 }).filter((r) => r.magnitudes === 0);
  const written = (run: NumberRun) => doc.words.slice(run.first, run.last + 1).some((w) => /[0-9]/.test(w.raw));
  // One spoken digit word is too common a word ("the one") to mask without a cue.
  const numberLike = (run: NumberRun) => written(run) || run.length >= 2;
  const first = runs[0];
  const last = runs[runs.length - 1];
  const leads = continues !== undefined && first !== undefined && first.first === 0;
  // Only hesitations after it ("4532 0151 um"): the group still ends the message.
  const ends = last !== undefined && words.slice(last.last + 1).every((w) => numberWordClass(w.word) === 'filler') && numberLike(last);
  const cuts: Cut[] = [];
  let held: string | undefined;
  for (const run of runs) {
    const cue = cueAt(run.first);
    const isEnd = ends && run === last;
    const isLead = leads && run === first;
    // A cue covers a group of three digits or more ("card ... 4532 0151 and 1283"), not "a 50 year old".
    const cued = cue !== undefined && numberLike(run) && run.length >= CUED_DIGITS;
    if (!isEnd && !isLead && !cued && !(partial && numberLike(run))) continue;
    const rule = digitRule(rules, run.length, (cued ? cue : undefined) ?? (isLead ? continues : cue))!;
    const start = doc.words[run.first].start;
    const end = doc.words[run.last].end;
    cuts.push({ start, end, replacement: masker.mask(rule, text.slice(start, end)) });
    kinds.add(rule.kind);
    if (isEnd) held = rule.kind;
  }
  return { text: applyCuts(text, cuts), held };
}

/**
 * A new message of a speaker redacted with the speaker's earlier kept messages (oldest first, at most
 * CONTEXT_MESSAGES are read). `text` is the message as already redacted alone; `continues`: the kind the
 * speaker's last message's final digit group was masked as (undefined: it did not end in one). `partial`: the
 * message is not final (isFinal false): every digit group in it is masked.
 */
export function redactAcrossMessages(
  earlier: readonly string[],
  text: string,
  rules: readonly RedactionRule[],
  masker: Masker,
  continues: string | undefined,
  partial = false,
): MessageRedaction {
  const kinds = new Set<string>();
  const context = earlier.slice(-CONTEXT_MESSAGES);
  const skipped = earlier.length - context.length;
  const pieces = [...context, text];
  const cuts: Cut[][] = pieces.map(() => []);
  const read = pieces.map((p) => masksBlanked(p, rules));
  // What this message shows alone was dealt with when it was redacted alone (and, read again with its masks in
  // it, only gives look-alikes of what was there): a span wholly inside it counts when the context made it.
  const alone = new Set(context.length === 0 ? [] : textStreamSpans([read[context.length]], rules).map((s) => `${s.parts[0].start}:${s.parts[0].end}`));
  for (const span of textStreamSpans(context.length === 0 ? [] : read, rules)) {
    // Spans wholly inside an earlier message were there when it was kept: only those reaching this one count.
    if (!span.parts.some((p) => p.piece === context.length)) continue;
    if (span.parts.length === 1 && alone.has(`${span.parts[0].start}:${span.parts[0].end}`)) continue;
    for (const part of span.parts) {
      cuts[part.piece].push({ start: part.start, end: part.end, replacement: partMask({ masker }, span, pieces[part.piece].slice(part.start, part.end)) });
    }
    kinds.add(span.rule.kind);
  }
  const out: (string | undefined)[] = earlier.map(() => undefined);
  context.forEach((piece, i) => {
    if (cuts[i].length > 0) out[skipped + i] = applyCuts(piece, cuts[i]);
  });
  let own = applyCuts(text, cuts[context.length]);
  let held: string | undefined;
  if (digitRule(rules, 0)) ({ text: own, held } = maskEdgeDigits([...context.map((p, i) => out[skipped + i] ?? p), own], rules, masker, continues, kinds, partial));
  return { text: own, earlier: out, ...(held && { held }), kinds: [...kinds] };
}
