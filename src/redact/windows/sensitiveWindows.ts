// The one entry point of window finding on a recognized call: cue windows, extended by number-shaped and
// low-confidence speech that runs on past them, and windows of number-shaped speech itself (right after a cue
// or "it's", long enough to be a card, account or phone number anywhere, or a turn made mostly of numbers),
// each widened to the speaker's whole turn: in noise the recognizer hears a few digits of a number read out
// and garbles the rest, so the digits heard say where, and the turn says how long. Pure: no I/O, times and kinds only.
import type { CueWindowsConfig } from '../../schema/resources/projectConfig.js';
import type { EntityKind } from '../entityKinds.js';
import { findCueWindows, substantive, turnEnd, type CueWindow } from './cueWindows.js';
import { digitCount, numberRuns, numberWordClass, type NumberRun } from './numberSpeech.js';
import { partiesOf, type Party, type WindowTranscript } from './parties.js';
import { normalizeWord, phoneticKey } from './phonetic.js';
import type { SensitiveWindow } from './types.js';
import { resolveWindowOptions, type WindowOptions } from './windowOptions.js';

export interface FindSensitiveWindowsOptions {
  /** The kinds the policy redacts (RedactionPolicy.kinds): windows are made for these kinds only. */
  kinds: readonly string[] | ReadonlySet<string>;
  /** The project's `cueWindows` configuration, when it has one. */
  project?: CueWindowsConfig;
  /** Already resolved options (resolveWindowOptions), in place of `project`. */
  options?: WindowOptions;
}

/** Words right before a run of digits that say a value follows ("it's four one ...", "that is ..."). */
const VALUE_LEAD_WORDS = new Set(['its', 'is', 'thats', 'number', 'was', 'be']);

/** Number kinds by how many number-like words were heard (digits get lost, so longer kinds come first). */
function kindPreference(length: number): EntityKind[] {
  if (length >= 12)
    return ['CreditCardNumber', 'USBankAccountNumber', 'PhoneNumber', 'USSocialSecurityNumber', 'ABARoutingNumber', 'USDriversLicenseNumber', 'USPassportNumber'];
  if (length >= 10)
    return ['PhoneNumber', 'USBankAccountNumber', 'CreditCardNumber', 'USSocialSecurityNumber', 'ABARoutingNumber', 'USDriversLicenseNumber', 'USPassportNumber'];
  if (length === 9)
    return ['USSocialSecurityNumber', 'ABARoutingNumber', 'USBankAccountNumber', 'CreditCardNumber', 'PhoneNumber', 'USDriversLicenseNumber', 'USPassportNumber'];
  if (length >= 5)
    return ['USBankAccountNumber', 'CreditCardNumber', 'DateOfBirth', 'ZipCode', 'USSocialSecurityNumber', 'PhoneNumber', 'USDriversLicenseNumber', 'USPassportNumber', 'ExpirationDate', 'CVV'];
  return ['CVV', 'ExpirationDate', 'DateOfBirth', 'ZipCode', 'CreditCardNumber', 'USBankAccountNumber', 'USSocialSecurityNumber', 'PhoneNumber'];
}

function kindFor(length: number, asked: ReadonlySet<string>): EntityKind | undefined {
  return kindPreference(length).find((k) => asked.has(k));
}

/**
 * Sensitive windows (source 'cue' and 'number') of a recognized call, for the kinds asked. Number-shaped and
 * low-confidence speech only ever lengthens a cue window or adds one; nothing here shortens or drops a window.
 */
export function findSensitiveWindows(transcript: WindowTranscript, { kinds, project, options }: FindSensitiveWindowsOptions): SensitiveWindow[] {
  const opts = options ?? resolveWindowOptions(project);
  const asked: ReadonlySet<string> = kinds instanceof Set ? kinds : new Set(kinds as readonly string[]);
  if (asked.size === 0) return [];
  const audioEnd = transcript.audioSeconds ?? Infinity;
  const cues = findCueWindows(transcript, { kinds: asked, options: opts });
  const out: SensitiveWindow[] = [];
  const parties = partiesOf(transcript);
  const hints = findHints(parties, asked, opts);
  for (const party of parties) {
    const mine = cues.filter((c) => c.party === party.id).sort((a, b) => a.start - b.start);
    const turns = turnsOf(party, parties, opts);
    for (const cue of mine) {
      extendOverSpeech(cue, party, opts, audioEnd);
      finishTurn(cue, turns, opts, audioEnd);
    }
    for (const run of numberRuns(party.words, { maxGapSeconds: opts.numberGapSeconds })) {
      const window = numberWindow(run, party, mine, hints, asked, opts, audioEnd);
      if (window) out.push(opts.wholeTurns ? widenToTurn(window, turns, opts, audioEnd) : window);
    }
    for (const turn of opts.wholeTurns ? turns : []) {
      const window = denseTurnWindow(turn, party, mine, hints, asked, opts, audioEnd);
      if (window) out.push(window);
    }
  }
  for (const c of cues) out.push({ channel: c.channel, start: c.start, end: c.end, kind: c.kind, source: c.source, reason: c.reason });
  if (opts.hintRequests && opts.cuesEnabled) out.push(...hintRequestWindows(parties, hints, cues, opts, audioEnd));
  out.push(...paymentSegments(out, opts));
  // After the segments: a stray word is too weak a sign to mute the speech between it and a number.
  if (opts.strayDigits) for (const party of parties) out.push(...strayDigitWindows(party, hints, asked, opts, audioEnd));
  return mergeWindows(out);
}

/**
 * A hint word heard from one party ("...the full social please" heard as "levels social please") is taken as a
 * request the recognizer half heard: a window on each other party's speech after it, to the end of their turn
 * or the kind's bound. Conservative: the answer to a garbled request is as sensitive as to a clear one.
 */
function hintRequestWindows(parties: readonly Party[], hints: readonly Hint[], cues: readonly CueWindow[], opts: WindowOptions, audioEnd: number): SensitiveWindow[] {
  const out: SensitiveWindow[] = [];
  const turns = new Map(parties.map((p) => [p.id, turnsOf(p, parties, opts)]));
  for (const hint of hints) {
    const asker = parties.find((p) => p.id === hint.party)!;
    if (!endsTurn(asker, turns.get(asker.id)!, hint.index)) continue;
    for (const target of parties.filter((p) => p.id !== hint.party)) {
      // The word is part of a cue phrase that was matched ("the cart number"): that cue's window stands.
      if (cues.some((c) => c.party === target.id && c.kind === hint.kind && c.start >= hint.at - 1 && c.start <= hint.at + 3)) continue;
      const limit = Math.min(audioEnd, hint.at + opts.maxSeconds[hint.kind]);
      const end = Math.min(limit, turnEnd(target, parties, hint.at, limit, opts));
      if (end > hint.at) out.push({ channel: target.channel, start: hint.at, end, kind: hint.kind, source: 'cue', reason: `hint "${hint.word}"` });
    }
  }
  return out;
}

/** Words that may follow a request's key word at the end of a turn ("your social, please"). */
const COURTESY = new Set(['please', 'thanks', 'thank', 'you', 'now', 'then', 'okay', 'ok', 'again', 'there']);

/**
 * Whether the word at `index` is the key word of its turn's ending ("...the full social please"): at most one
 * other word after it in the turn, courtesies and hesitations aside. "I paid by card last week" says the word in
 * passing; a request ends on what it asks for.
 */
function endsTurn(party: Party, turns: readonly Turn[], index: number): boolean {
  const turn = turns.find((t) => t.first <= index && index <= t.last);
  if (!turn) return false;
  let after = 0;
  for (let i = index + 1; i <= turn.last; i++) {
    const w = normalizeWord(party.words[i].word);
    if (!COURTESY.has(w) && numberWordClass(w) !== 'filler') after++;
  }
  return after <= 1;
}

/** Words that are one digit as said: what a leaked number looks like in the text. */
const SINGLE_DIGIT_WORDS = new Set(['zero', 'oh', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'niner', 'double', 'triple']);

/** The farthest (s) a number-like neighbour may be for a digit word to count as part of a number. */
const STRAY_NEIGHBOUR_SECONDS = 1;

/**
 * A digit word heard inside garbled speech ("bullet in the one when do we leave" for a card number read in noise)
 * that no run, turn or cue rule covered: masked where it stands when it was heard unsure, or beside a
 * number-like word heard unsure ("only one for? him"). One word's time each, so ordinary talk loses at most that word ("no one
 * else" heard unsure); a confident digit word said in passing ("the one on the front") stays.
 */
function strayDigitWindows(party: Party, hints: readonly Hint[], asked: ReadonlySet<string>, opts: WindowOptions, audioEnd: number): SensitiveWindow[] {
  const out: SensitiveWindow[] = [];
  const words = party.words;
  const unsureAt = (i: number) => i >= 0 && i < words.length && words[i].confidence !== undefined && words[i].confidence! < opts.lowConfidence;
  // A neighbour heard unsure that may be a digit ("for?", "won?"); confident "for one moment" is ordinary talk.
  const numberLike = (i: number) => {
    const cls = i >= 0 && i < words.length ? numberWordClass(words[i].word) : 'other';
    return (cls === 'digit' || cls === 'lookalike') && unsureAt(i);
  };
  words.forEach((w, i) => {
    if (!SINGLE_DIGIT_WORDS.has(normalizeWord(w.word))) return;
    const unsure = unsureAt(i);
    const beside =
      (numberLike(i - 1) && w.start - words[i - 1].end <= STRAY_NEIGHBOUR_SECONDS) || (numberLike(i + 1) && words[i + 1].start - w.end <= STRAY_NEIGHBOUR_SECONDS);
    if (!unsure && !beside) return;
    const kind = latestHint(hints, w.start, opts)?.kind ?? kindFor(1, asked);
    if (!kind) return;
    out.push({ channel: party.channel, start: w.start, end: Math.min(audioEnd, Math.max(w.end, w.start)), kind, source: 'number', reason: unsure ? 'a digit word heard unsure' : 'a digit word beside a number-like word' });
  });
  return out;
}

/** Kinds whose cue windows mark a payment or verification exchange (number windows always do). */
const SEGMENT_KINDS = new Set<string>(['CreditCardNumber', 'CVV', 'ExpirationDate', 'USBankAccountNumber', 'ABARoutingNumber', 'USSocialSecurityNumber', 'DateOfBirth']);

/**
 * The stretch between two number or cue windows of one channel, at most `segmentGapSeconds` apart: a payment
 * segment inferred from the values found around it. A short value read between two long ones ("one five oh"
 * after the card, before the SSN) is often heard as nothing number-like; muting the gap costs the channel's
 * speech there (acknowledgements, silence), which is counted as over-redaction.
 */
function paymentSegments(windows: readonly SensitiveWindow[], opts: WindowOptions): SensitiveWindow[] {
  if (opts.segmentGapSeconds <= 0) return [];
  const out: SensitiveWindow[] = [];
  const found = windows.filter((w) => w.source === 'number' || (w.source === 'cue' && SEGMENT_KINDS.has(w.kind)));
  for (const channel of new Set(found.map((w) => w.channel))) {
    const mine = found.filter((w) => w.channel === channel).sort((a, b) => a.start - b.start);
    let reach = mine[0];
    for (const w of mine.slice(1)) {
      const gap = w.start - reach.end;
      if (gap > 0 && gap <= opts.segmentGapSeconds) out.push({ channel, start: reach.end, end: w.start, kind: w.kind, source: 'number', reason: 'between two number windows (payment segment)' });
      if (w.end > reach.end) reach = w;
    }
  }
  return out;
}

/**
 * Lengthens a cue window over the answering party's speech that runs on past it without a pause: number-like
 * words (look-alikes and hesitations included) and words heard with low confidence are the value going on.
 * Low confidence alone extends to one more bound at most: on a noisy call most words are low-confidence.
 */
function extendOverSpeech(cue: CueWindow, party: Party, opts: WindowOptions, audioEnd: number) {
  const lowConfidenceCap = cue.limit + cue.bound;
  let prevEnd = cue.start;
  for (const w of party.words) {
    if (w.end <= cue.start) continue;
    if (w.end <= cue.end) {
      prevEnd = Math.max(prevEnd, w.end);
      continue;
    }
    const numberLike = numberWordClass(w.word) !== 'other';
    const unsure = w.confidence !== undefined && w.confidence < opts.lowConfidence && w.end <= lowConfidenceCap;
    const valueLike = numberLike || unsure;
    if (!valueLike || w.start - prevEnd > opts.numberGapSeconds) break;
    cue.end = Math.min(audioEnd, Math.max(cue.end, w.end + opts.padSeconds));
    prevEnd = w.end;
  }
}

/**
 * A cue window cut by its kind's bound in the middle of the answering party's turn runs on to that turn's end
 * (one more bound at most): the next value is often read straight after ("...the social" answered, then the
 * account number asked and read while the window was still open), and stopping mid-turn halves it.
 */
function finishTurn(cue: CueWindow, turns: readonly Turn[], opts: WindowOptions, audioEnd: number) {
  if (cue.end < cue.limit - 1e-6) return;
  const turn = turns.find((t) => t.start < cue.end && t.end > cue.end);
  if (turn) cue.end = Math.min(audioEnd, cue.limit + cue.bound, Math.max(cue.end, turn.end + opts.padSeconds));
}

function numberWindow(
  run: NumberRun,
  party: Party,
  cues: readonly CueWindow[],
  hints: readonly Hint[],
  asked: ReadonlySet<string>,
  opts: WindowOptions,
  audioEnd: number,
): SensitiveWindow | undefined {
  const end = Math.min(audioEnd, run.end + opts.padSeconds);
  // Padded at both ends: word times are estimates, and the first digit's onset comes before its word's start.
  const base = { channel: party.channel, start: Math.max(0, run.start - opts.padSeconds), end, source: 'number' as const };
  const reason = `${run.length} number-like words`;
  if (run.length >= opts.minNumberWordsNearCue) {
    // Inside (or just after) a cue window: the cue's kind.
    const cue = cues.find((c) => run.start >= c.start - 1 && run.start <= c.end + 1);
    if (cue) return { ...base, kind: cue.kind, reason: `${reason} after ${cue.reason ?? 'a cue'}` };
    // A hint word ("card") said shortly before, by either party: a cue the recognizer half heard.
    const hint = latestHint(hints, run.start, opts);
    if (hint) return { ...base, kind: hint.kind, reason: `${reason} after "${hint.word}"` };
    const before = previousWord(party, run.first);
    // "it's four one one two", but not "the total is four hundred and fifty six".
    if (before && VALUE_LEAD_WORDS.has(normalizeWord(before.word)) && run.start - before.end <= 1.5 && run.magnitudes === 0) {
      const kind = kindFor(run.length, asked);
      if (kind) return { ...base, kind, reason: `${reason} after "${normalizeWord(before.word)}"` };
    }
  }
  // Four digits said in a row, no "hundred": a number read out, whoever asked (the cue may be lost in noise).
  const readOut = run.digits >= opts.minDigitRunAnywhere && run.magnitudes === 0;
  if (readOut || (run.length >= opts.minNumberWordsAnywhere && run.digits >= opts.minDigitWordsAnywhere)) {
    const kind = latestHint(hints, run.start, opts)?.kind ?? kindFor(run.length, asked);
    if (kind) return { ...base, kind, reason };
  }
  return undefined;
}

/** A party's turn: its words between pauses of `turnGapSeconds` and another party's substantive speech. */
interface Turn {
  start: number;
  end: number;
  first: number;
  last: number;
}

/** The longest a word is taken to last when turns are cut (s). */
const MAX_WORD_SECONDS = 1;

function turnsOf(party: Party, parties: readonly Party[], opts: WindowOptions): Turn[] {
  const others = parties
    .filter((p) => p.id !== party.id)
    .flatMap((p) => p.words.filter((w) => substantive(w.word)).map((w) => w.start))
    .sort((a, b) => a - b);
  const turns: Turn[] = [];
  let turn: Turn | undefined;
  let o = 0;
  party.words.forEach((w, i) => {
    if (numberWordClass(w.word) === 'filler' && !turn) return;
    // A word "lasting" seconds is the recognizer stretching it over noise or silence: it holds no turn open.
    const end = Math.min(w.end, w.start + MAX_WORD_SECONDS);
    while (o < others.length && others[o] <= (turn?.end ?? -Infinity)) o++;
    const interrupted = turn !== undefined && o < others.length && others[o] < w.start;
    if (!turn || interrupted || w.start - turn.end > opts.turnGapSeconds) turns.push((turn = { start: w.start, end, first: i, last: i }));
    turn.end = Math.max(turn.end, end);
    turn.last = i;
  });
  return turns;
}

/**
 * A number window grown to the turn it lies in (the rest of a number read out is misheard as other words), never
 * longer than the kind's bound unless the number run itself is.
 */
function widenToTurn(window: SensitiveWindow, turns: readonly Turn[], opts: WindowOptions, audioEnd: number): SensitiveWindow {
  const turn = turns.find((t) => t.start < window.end && t.end > window.start);
  if (!turn) return window;
  const bound = Math.max(window.end - window.start, opts.maxSeconds[window.kind as EntityKind] ?? 20);
  const start = Math.max(0, Math.min(window.start, turn.start - opts.padSeconds));
  const end = Math.min(audioEnd, Math.max(window.end, turn.end + opts.padSeconds), start + bound);
  return { ...window, start, end: Math.max(end, window.end) };
}

/**
 * A turn made mostly of numbers ("you want to nine nine and seven one three" for "two one two, nine nine, seven
 * one three oh"): a window over the whole turn, though no run in it is long enough alone.
 */
function denseTurnWindow(
  turn: Turn,
  party: Party,
  cues: readonly CueWindow[],
  hints: readonly Hint[],
  asked: ReadonlySet<string>,
  opts: WindowOptions,
  audioEnd: number,
): SensitiveWindow | undefined {
  let words = 0;
  let numberLike = 0;
  let digits = 0;
  let magnitudes = 0;
  for (let i = turn.first; i <= turn.last; i++) {
    const w = party.words[i];
    const cls = numberWordClass(w.word);
    if (cls === 'filler') continue;
    words++;
    if (cls === 'other') continue;
    numberLike += digitCount(w.word);
    if (cls === 'digit') digits += digitCount(w.word);
    if (['hundred', 'thousand'].includes(normalizeWord(w.word))) magnitudes++;
  }
  // An amount ("four hundred and fifty") is not a number read out.
  if (digits < opts.minDenseDigits || magnitudes > 0 || numberLike < opts.minDenseShare * words) return undefined;
  const cue = cues.find((c) => turn.start >= c.start - 1 && turn.start <= c.end + 1);
  const kind = (cue?.kind as EntityKind | undefined) ?? latestHint(hints, turn.start, opts)?.kind ?? kindFor(numberLike, asked);
  if (!kind) return undefined;
  const start = Math.max(0, turn.start - opts.padSeconds);
  const end = Math.min(audioEnd, turn.end + opts.padSeconds, start + Math.max(opts.maxSeconds[kind], turn.end - turn.start));
  return { channel: party.channel, start, end, kind, source: 'number', reason: `a turn of ${words} words, ${numberLike} number-like` };
}

interface Hint {
  kind: EntityKind;
  word: string;
  at: number;
  /** Who said it, and the word's index in that party's words. */
  party: string;
  index: number;
}

/** Hint words of the asked kinds, by exact text or sound key (keys of three sounds or more), in time order. */
function findHints(parties: readonly Party[], asked: ReadonlySet<string>, opts: WindowOptions): Hint[] {
  const byText = new Map<string, EntityKind>();
  const byKey = new Map<string, EntityKind>();
  for (const [kind, words] of Object.entries(opts.hintWords) as [EntityKind, string[]][]) {
    if (!asked.has(kind)) continue;
    for (const w of words) {
      const text = normalizeWord(w);
      byText.set(text, kind);
      const key = phoneticKey(text);
      if (key.length >= 3) byKey.set(key, kind);
    }
  }
  const hints: Hint[] = [];
  if (byText.size === 0) return hints;
  for (const party of parties)
    party.words.forEach((w, index) => {
      const text = normalizeWord(w.word);
      const kind = byText.get(text) ?? byKey.get(phoneticKey(text));
      if (kind) hints.push({ kind, word: text, at: w.end, party: party.id, index });
    });
  return hints.sort((a, b) => a.at - b.at);
}

function latestHint(hints: readonly Hint[], at: number, opts: WindowOptions): Hint | undefined {
  let found: Hint | undefined;
  for (const h of hints) {
    if (h.at > at + 0.5) break;
    if (h.at >= at - opts.hintSeconds) found = h;
  }
  return found;
}

/** The word before index `i` that is not a hesitation. */
function previousWord(party: Party, i: number) {
  for (let j = i - 1; j >= 0; j--) if (numberWordClass(party.words[j].word) !== 'filler') return party.words[j];
  return undefined;
}

/** Overlapping windows of the same channel, kind and source become one (the report counts by source). */
export function mergeWindows(windows: readonly SensitiveWindow[]): SensitiveWindow[] {
  const sorted = [...windows].sort((a, b) => a.channel - b.channel || a.kind.localeCompare(b.kind) || a.source.localeCompare(b.source) || a.start - b.start);
  const out: SensitiveWindow[] = [];
  for (const w of sorted) {
    const last = out[out.length - 1];
    if (last && last.channel === w.channel && last.kind === w.kind && last.source === w.source && w.start <= last.end) {
      last.end = Math.max(last.end, w.end);
      continue;
    }
    out.push({ ...w });
  }
  return out.sort((a, b) => a.start - b.start || a.channel - b.channel);
}
