// Cue windows: a request heard on one party's speech ("can I have the card number", misheard or not) opens a
// window on the other party's following turn; a lead-in ("my card number is") on the same speaker's. The window
// closes when that turn ends (the other party speaks again, or a long pause) or at the kind's bound.
import type { EntityKind } from '../entityKinds.js';
import { numberWordClass } from './numberSpeech.js';
import { partiesOf, type Party, type WindowTranscript } from './parties.js';
import { cuePhrase, findPhrases, normalizeWord, type CuePhrase } from './phonetic.js';
import type { SensitiveWindow } from './types.js';
import type { WindowOptions } from './windowOptions.js';

/** A cue window before merging, with the party whose turn it spans (number speech extends it on that party). */
export interface CueWindow extends SensitiveWindow {
  party: string;
  /** The kind's bound ended here (cue end + bound, within the recording). */
  limit: number;
  /** The kind's bound in seconds. */
  bound: number;
}

interface CueTag {
  kind: EntityKind;
  direction: 'request' | 'leadIn';
}

/** What another party says that does not take the turn: acknowledgements, and digits read back. */
const BACKCHANNEL = new Set(
  'mhm mm hmm uh huh um okay ok yes yeah yep right sure alright got it go ahead thank you thanks great perfect good and'.split(' '),
);

/** Whether another party's word takes the turn (not an acknowledgement, not a digit read back). */
export function substantive(word: string): boolean {
  const w = normalizeWord(word);
  return !BACKCHANNEL.has(w) && numberWordClass(w) === 'other';
}

export interface FindCueWindowsOptions {
  /** The kinds the policy redacts: windows of other kinds are not made. */
  kinds: ReadonlySet<string> | readonly string[];
  options: WindowOptions;
}

/** Prepared phrase lists, cached per options object (the same resolved options serve many jobs). */
const prepared = new WeakMap<WindowOptions, CuePhrase<CueTag>[]>();

function phrasesOf(options: WindowOptions): CuePhrase<CueTag>[] {
  let list = prepared.get(options);
  if (!list) {
    list = [];
    for (const [kind, phrases] of Object.entries(options.requests) as [EntityKind, string[]][])
      for (const p of phrases) list.push(cuePhrase(p, { kind, direction: 'request' }));
    for (const [kind, phrases] of Object.entries(options.leadIns) as [EntityKind, string[]][])
      for (const p of phrases) list.push(cuePhrase(p, { kind, direction: 'leadIn' }, true));
    list = list.filter((p) => p.words.length > 0);
    prepared.set(options, list);
  }
  return list;
}

export function findCueWindows(transcript: WindowTranscript, { kinds, options }: FindCueWindowsOptions): CueWindow[] {
  if (!options.cuesEnabled) return [];
  const asked = kinds instanceof Set ? kinds : new Set(kinds as readonly string[]);
  const phrases = phrasesOf(options).filter((p) => asked.has(p.tag.kind));
  if (phrases.length === 0) return [];
  const parties = partiesOf(transcript);
  const audioEnd = transcript.audioSeconds ?? Infinity;
  const windows: CueWindow[] = [];
  for (const party of parties) {
    const matches = findPhrases(
      party.words.map((w) => w.word),
      phrases,
    );
    // A lead-in ("my card number is") also holds a request ("card number"): the speaker is giving, not asking.
    const leadIns = matches.filter((m) => m.phrase.tag.direction === 'leadIn');
    const kept = matches.filter(
      (m) => m.phrase.tag.direction === 'leadIn' || !leadIns.some((l) => l.first <= m.last && m.first <= l.last),
    );
    for (const m of kept) {
      const { kind, direction } = m.phrase.tag;
      const bound = options.maxSeconds[kind];
      const cueEnd = party.words[m.last].end;
      const targets = direction === 'leadIn' ? [party] : answeringParties(party, parties);
      for (const target of targets) {
        // The answer may overlap the request's last word; a speaker's own value follows the lead-in.
        const start = direction === 'leadIn' ? cueEnd : Math.min(cueEnd, party.words[m.last].start);
        const limit = Math.min(audioEnd, cueEnd + bound);
        const end = Math.min(limit, turnEnd(target, parties, cueEnd, limit, options));
        if (end <= start) continue;
        windows.push({
          channel: target.channel,
          start,
          end,
          kind,
          source: 'cue',
          reason: `${direction === 'leadIn' ? 'lead-in' : 'request'} "${m.phrase.text}"`,
          party: target.id,
          limit,
          bound,
        });
      }
    }
  }
  return windows;
}

/**
 * Who answers a request: every other party; on an unlabelled mono call there is none to tell apart, so the
 * channel itself (its following speech, until a pause or the bound).
 */
function answeringParties(asker: Party, parties: readonly Party[]): Party[] {
  const others = parties.filter((p) => p.id !== asker.id);
  return others.length > 0 ? others : [asker];
}

/**
 * When the target's turn after `from` ends: the end of its last stretch of speech before another party says
 * something of substance or before a pause of `silenceGapSeconds`, padded; `limit` when it never spoke (the
 * recognizer may have heard nothing of a value that was said: keep the whole bound then).
 */
export function turnEnd(target: Party, parties: readonly Party[], from: number, limit: number, options: WindowOptions): number {
  const stretches = target.activity.filter((s) => s.end > from && s.start < limit);
  if (stretches.length === 0) return limit;
  const others = parties.filter((p) => p.id !== target.id);
  const answerStart = Math.max(from, stretches[0].start);
  const interrupts = others
    .flatMap((p) => p.words.filter((w) => w.start > answerStart && w.start < limit && substantive(w.word)))
    .map((w) => w.start)
    .sort((a, b) => a - b);
  let end = stretches[0].end;
  for (let i = 1; i < stretches.length; i++) {
    const next = stretches[i];
    if (next.start - end > options.silenceGapSeconds) break;
    if (interrupts.some((t) => t >= end && t < next.start)) break;
    end = Math.max(end, next.end);
  }
  return end + options.padSeconds;
}
