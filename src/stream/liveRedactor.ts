// Redaction in flight, per channel of a live stream: nothing leaves the server before it has gone through the
// one redaction core (wordSpans over the words, masks of the stream's rules).
//
// Finals: each final is redacted with the channel's earlier final words as context (so "my social is" in one
// utterance still labels the digits of the next). A final that ENDS in spoken digits is held back until the
// channel's next final (or HOLD_SECONDS of stream time without one, or the end of the stream) and redacted
// together with it: a number read in groups with pauses ("four one one one ... one one one one") spans
// utterances, and its first group alone would not be recognized as the card it is.
// Partials: the words so far are redacted like a final, and, since an entity may still be forming, every
// number-like word (a digit run in progress) and the words after a name cue ("my name is ...") are held back
// (shown as HELD) until the final decides. Partials therefore never show digits or a just-given name while
// any rule for such a kind is active: they appear, redacted or not, in the final.
import type { Word } from '../transcript/types.js';
import { Masker, type MaskRule } from '../redact/masks.js';
import { wordSpans } from '../redact/redactText.js';
import type { RedactionRule } from '../redact/rules.js';
import { numberRuns, numberWordClass } from '../redact/windows/numberSpeech.js';
import type { NumberCues } from '../redact/numberCues.js';

/** What stands in a partial for words held back. */
export const HELD = '…';
/** Earlier final words kept as context (in memory only, never sent). */
const CONTEXT_WORDS = 40;
/** Stream seconds a final ending in digits waits for the next one. */
export const HOLD_SECONDS = 3;
/**
 * In finals, a run of this many spoken digits or more that detection left alone is masked all the same while a
 * kind spoken as digits is redacted: recognition errors ("four one one one one mine mine ...") break a card
 * number into pieces no recognizer takes for a card, and a live message cannot be taken back.
 */
export const DIGIT_RUN_FLOOR = 4;
/** Words after a name cue held back in partials. */
const NAME_WORDS = 3;
const NAME_CUES = [['my', 'name', 'is'], ['name', 'is'], ['names'], ["name's"], ['this', 'is'], ['i', 'am'], ["i'm"], ['speaking', 'with'], ['spelled']];

export interface RedactedFinal {
  start: number;
  end: number;
  words: Word[];
  /** Kinds masked in it (never the values). */
  kinds: string[];
}

export class LiveRedactor {
  private context: Word[] = [];
  private held: { start: number; end: number; words: Word[] } | undefined;
  private readonly holdDigits: boolean;
  private readonly holdNames: boolean;

  constructor(
    private readonly rules: readonly RedactionRule[],
    private readonly masker: Masker,
    /** Number cues heard on any channel of the call (numberCues.ts): digit words after one are masked. */
    private readonly cues?: NumberCues,
  ) {
    this.holdNames = rules.some((r) => r.kind === 'Person');
    // Every kind but Person and Email can be spoken as digits (addresses and dates too).
    this.holdDigits = rules.some((r) => r.kind !== 'Person' && r.kind !== 'Email');
  }

  get active(): boolean {
    return this.rules.length > 0;
  }

  /** A final from the engine: what may be sent now (nothing, one or two finals). */
  final(final: { start: number; end: number; words: Word[] }): RedactedFinal[] {
    const out: RedactedFinal[] = [];
    let release = final;
    if (this.held) {
      // The held final and this one are redacted together, then sent as they came: two messages.
      const held = this.held;
      this.held = undefined;
      const both = this.redact([...held.words, ...final.words]);
      out.push({ start: held.start, end: held.end, ...pick(both, 0, held.words.length) });
      const rest = pick(both, held.words.length, held.words.length + final.words.length);
      if (this.mayContinue(final.words)) {
        this.remember(held.words);
        this.held = final;
        return out;
      }
      this.remember([...held.words, ...final.words]);
      out.push({ start: final.start, end: final.end, ...rest });
      return out;
    }
    if (this.mayContinue(release.words)) {
      this.held = release;
      return out;
    }
    const redacted = this.redact(release.words);
    this.remember(release.words);
    out.push({ start: release.start, end: release.end, ...pick(redacted, 0, release.words.length) });
    return out;
  }

  /** Time has passed (stream seconds): a held final whose wait is over is released. */
  tick(now: number): RedactedFinal[] {
    if (!this.held || now - this.held.end < HOLD_SECONDS) return [];
    return this.flush();
  }

  /** End of the stream: whatever is held goes. */
  flush(): RedactedFinal[] {
    const held = this.held;
    if (!held) return [];
    this.held = undefined;
    const redacted = this.redact(held.words);
    this.remember(held.words);
    return [{ start: held.start, end: held.end, ...pick(redacted, 0, held.words.length) }];
  }

  /** A partial's words as they may be shown. */
  partial(words: readonly string[]): string[] {
    if (!this.active) return [...words];
    const asWords = words.map((word) => ({ word, start: 0, end: 0, confidence: 0 }));
    const base = this.context.length;
    const all = [...this.context, ...(this.held?.words ?? []), ...asWords];
    const offset = base + (this.held?.words.length ?? 0);
    const shown = masked(all, wordSpans(all.map((w) => w.word), this.rules), this.masker, offset).map((w) => w.word);
    // Held back: number-like words and the words after a name cue, in the partial's own words.
    const hold = new Array<boolean>(words.length).fill(false);
    if (this.holdDigits) {
      for (let i = 0; i < words.length; i++) {
        const c = numberWordClass(words[i]);
        if (c === 'digit') hold[i] = true;
        else if (c === 'lookalike' && (isDigit(words[i - 1]) || isDigit(words[i + 1]))) hold[i] = true;
      }
    }
    if (this.holdNames) {
      const lower = [...(this.context.slice(-4).map((w) => w.word)), ...words].map((w) => w.toLowerCase());
      const shift = lower.length - words.length;
      for (let i = 0; i < lower.length; i++) {
        for (const cue of NAME_CUES) {
          if (cue.every((c, k) => lower[i + k] === c)) {
            for (let j = i + cue.length; j < i + cue.length + NAME_WORDS; j++) if (j - shift >= 0 && j - shift < words.length) hold[j - shift] = true;
          }
        }
      }
    }
    // Masks from detection win (they are what the final shows); the held words collapse into one HELD mark each run.
    const out: string[] = [];
    for (let i = 0; i < shown.length; i++) {
      if (hold[i] && words[i] === shown[i]) {
        if (out[out.length - 1] !== HELD) out.push(HELD);
      } else if (i > 0 && shown[i] !== words[i] && shown[i] === shown[i - 1]) {
        continue; // one mask for a span of several words
      } else out.push(shown[i]);
    }
    return out;
  }

  private mayContinue(words: readonly Word[]): boolean {
    if (!this.holdDigits || words.length === 0) return false;
    return numberWordClass(words[words.length - 1].word) === 'digit';
  }

  private remember(words: readonly Word[]): void {
    this.context = [...this.context, ...words].slice(-CONTEXT_WORDS);
  }

  /** `words` redacted with the context before them: one entry per input word (undefined: masked into the one before). */
  private redact(words: readonly Word[]): { out: (Word | undefined)[]; kinds: Set<string>[] } {
    const all = [...this.context, ...words];
    const spans = this.active ? wordSpans(all.map((w) => w.word), this.rules) : [];
    const base = this.context.length;
    const out: (Word | undefined)[] = words.map((w) => ({ ...w }));
    const kinds = words.map(() => new Set<string>());
    for (const span of spans) {
      const from = Math.max(span.wordStart, base) - base;
      const to = span.wordEnd - base;
      if (to <= 0) continue;
      const covered = words.slice(from, to);
      const rule: MaskRule = span.rule;
      if (rule.maskType === 'MaskCharacter') {
        for (let i = from; i < to; i++) out[i] = { ...words[i], word: this.masker.mask(rule, words[i].word), confidence: 1 };
      } else {
        const replacement = this.masker.mask(rule, covered.map((w) => w.word).join(' '));
        out[from] = replacement === '' ? undefined : { word: replacement, start: covered[0].start, end: covered[covered.length - 1].end, confidence: 1 };
        for (let i = from + 1; i < to; i++) out[i] = undefined;
      }
      for (let i = from; i < to; i++) kinds[i].add(rule.kind);
    }
    if (this.holdDigits) this.maskDigitRuns(words, out, kinds);
    if (this.holdDigits && this.cues) this.maskCuedDigits(words, out, kinds);
    return { out, kinds };
  }

  /**
   * After a number cue (numberCues.ts), every digit word and digit look-alike still shown is masked under the
   * cue's kind (or the numeric rule that fits), adjacent ones under one mask: the number was asked for, and
   * whatever recognition made of it, its digits do not go out.
   */
  private maskCuedDigits(words: readonly Word[], out: (Word | undefined)[], kinds: Set<string>[]): void {
    let last = -1;
    for (let i = 0; i < words.length; i++) {
      const shown = out[i];
      if (shown === undefined || kinds[i].size > 0 || shown.word !== words[i].word || numberWordClass(words[i].word) === 'other' || numberWordClass(words[i].word) === 'filler') continue;
      const kind = this.cues!.kindAt(words[i].start);
      if (!kind) continue;
      const rule = this.rules.find((r) => r.kind === kind) ?? this.digitRule(1);
      kinds[i].add(rule.kind);
      if (rule.maskType !== 'MaskCharacter' && last === i - 1 && out[last] && kinds[last].has(rule.kind)) {
        // One mask for adjacent digit words: the one before now spans this word too.
        out[last] = { ...out[last]!, word: this.masker.mask(rule, words.slice(runStart(kinds, last, rule.kind), i + 1).map((w) => w.word).join(' ')), end: words[i].end };
        out[i] = undefined;
      } else {
        const replacement = this.masker.mask(rule, words[i].word);
        out[i] = replacement === '' ? undefined : { ...words[i], word: replacement, confidence: 1 };
      }
      last = i;
    }
  }

  /** The digit-run floor (DIGIT_RUN_FLOOR): runs not masked yet are masked under the numeric rule that fits best. */
  private maskDigitRuns(words: readonly Word[], out: (Word | undefined)[], kinds: Set<string>[]): void {
    for (const run of numberRuns(words)) {
      if (run.length < DIGIT_RUN_FLOOR || run.magnitudes > 0) continue;
      const open: number[] = [];
      for (let i = run.first; i <= run.last; i++) if (out[i] !== undefined && kinds[i].size === 0 && out[i]!.word === words[i].word) open.push(i);
      if (open.length === 0) continue;
      const rule = this.digitRule(run.length);
      const from = open[0];
      const to = open[open.length - 1] + 1;
      const covered = words.slice(from, to);
      const replacement = this.masker.mask(rule, covered.map((w) => w.word).join(' '));
      for (let i = from; i < to; i++) {
        if (kinds[i].size > 0) continue;
        out[i] = i === from && replacement !== '' ? { word: replacement, start: covered[0].start, end: covered[covered.length - 1].end, confidence: 1 } : undefined;
        if (rule.maskType === 'MaskCharacter') out[i] = { ...words[i], word: this.masker.mask(rule, words[i].word), confidence: 1 };
        kinds[i].add(rule.kind);
      }
    }
  }

  private digitRule(digits: number): RedactionRule {
    const by = (kind: string) => this.rules.find((r) => r.kind === kind);
    return (digits >= 13 ? by('CreditCardNumber') : undefined) ?? by('USSocialSecurityNumber') ?? by('CreditCardNumber') ?? this.rules.find((r) => r.kind !== 'Person' && r.kind !== 'Email')!;
  }
}

/** Where the run of words masked under `kind` that ends at `at` starts. */
function runStart(kinds: Set<string>[], at: number, kind: string): number {
  let i = at;
  while (i > 0 && kinds[i - 1].has(kind)) i--;
  return i;
}

function isDigit(word: string | undefined): boolean {
  return word !== undefined && numberWordClass(word) === 'digit';
}

function pick(r: { out: (Word | undefined)[]; kinds: Set<string>[] }, from: number, to: number): { words: Word[]; kinds: string[] } {
  const words = r.out.slice(from, to).filter((w): w is Word => w !== undefined);
  const kinds = new Set<string>();
  for (const k of r.kinds.slice(from, to)) for (const kind of k) kinds.add(kind);
  return { words, kinds: [...kinds] };
}

/** Words with spans masked, from index `offset` on. */
function masked(all: readonly Word[], spans: ReturnType<typeof wordSpans>, masker: Masker, offset: number): Word[] {
  const out = all.slice(offset).map((w) => ({ ...w }));
  for (const span of spans) {
    for (let i = Math.max(span.wordStart, offset); i < span.wordEnd; i++) {
      out[i - offset] = { ...out[i - offset], word: span.rule.maskType === 'MaskCharacter' ? masker.mask(span.rule, all[i].word) : masker.mask(span.rule, all.slice(span.wordStart, span.wordEnd).map((w) => w.word).join(' ')) || HELD };
    }
  }
  return out;
}
