// Number cues heard in a live call, shared by its channels. A card or social security number read out is often
// recognized only in pieces ("four land mine mine ... one"): no recognizer takes the pieces for a card and the
// digit-run floor (liveRedactor.ts) needs four digits in a row. But the cue before it — the agent's "can I have
// the card number", the caller's "my card number is", or just "card" — is usually heard. After such a cue (on
// either channel: a request is answered on the other), every digit word and digit look-alike of the kind's bound
// (cuePhrases.ts, seconds of stream time) is masked in finals, whatever else recognition made of the number.
// Only digit-shaped words are masked, never the words between them: redacting more, never less, at little cost.
import type { EntityKind } from './entityKinds.js';
import { NUMBER_KINDS } from './numberKinds.js';
import { DEFAULT_HINT_WORDS, DEFAULT_LEAD_INS, DEFAULT_MAX_SECONDS, DEFAULT_REQUESTS, FALLBACK_MAX_SECONDS } from './windows/cuePhrases.js';
import { cuePhrase, findPhrases, type CuePhrase } from './windows/phonetic.js';

/** Recent words kept per channel, so a cue split across two finals is still heard. */
const CARRY_WORDS = 6;

export interface HeardCue {
  kind: string;
  /** Stream time (s) the cue ended. */
  at: number;
  /** Until when (s) digit words are masked under `kind`. */
  until: number;
}

export class NumberCues {
  private readonly phrases: CuePhrase<string>[];
  private readonly cues: HeardCue[] = [];
  private readonly carry = new Map<number, { word: string; end: number }[]>();

  /** `kinds`: the kinds the stream redacts (cues of others are not listened for). */
  constructor(kinds: readonly string[]) {
    const asked = NUMBER_KINDS.filter((k) => kinds.includes(k));
    this.phrases = asked.flatMap((kind) => [
      ...(DEFAULT_REQUESTS[kind] ?? []).map((p) => cuePhrase(p, kind)),
      ...(DEFAULT_LEAD_INS[kind] ?? []).map((p) => cuePhrase(p, kind, true)),
      ...(DEFAULT_HINT_WORDS[kind] ?? []).map((p) => cuePhrase(p, kind, true)),
    ]);
  }

  get listening(): boolean {
    return this.phrases.length > 0;
  }

  /** A final's words as recognized (before redaction), on `channel`: the cues in them are remembered. */
  hear(channel: number, words: readonly { word: string; start: number; end: number }[]): void {
    if (!this.listening || words.length === 0) return;
    const carried = this.carry.get(channel) ?? [];
    const all = [...carried, ...words.map((w) => ({ word: w.word, end: w.end }))];
    for (const match of findPhrases(all.map((w) => w.word), this.phrases)) {
      if (match.last < carried.length) continue; // heard with the earlier final already
      const at = all[match.last].end;
      const kind = match.phrase.tag;
      this.cues.push({ kind, at, until: at + (DEFAULT_MAX_SECONDS[kind as EntityKind] ?? FALLBACK_MAX_SECONDS) });
    }
    this.carry.set(channel, all.slice(-CARRY_WORDS));
    // Cues long past their bound are dropped (a call may last hours).
    const latest = all[all.length - 1].end;
    for (let i = this.cues.length - 1; i >= 0; i--) if (this.cues[i].until < latest - 120) this.cues.splice(i, 1);
  }

  /** The kind whose cue covers a word starting at `time` (the latest cue's), or undefined. */
  kindAt(time: number): string | undefined {
    let found: HeardCue | undefined;
    for (const cue of this.cues) if (cue.at <= time + 0.5 && time <= cue.until && (!found || cue.at > found.at)) found = cue;
    return found?.kind;
  }
}
