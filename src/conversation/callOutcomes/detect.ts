// Issues, outcomes and action items in a conversation's (redacted) text (issue 35): each sentence of each turn
// is matched against the lexicon (lexicon.ts); a sentence holding a phrase of a kind is one detection of that
// kind, with its turn (`line`), party, the time of the phrase, the phrase and the sentence. A phrase of an outcome
// or action item right after a negation ("it has not been resolved", "nobody will call back") is no detection:
// the sentence says the opposite. Masks ([PERSON], ****) are words that only `*` matches. Pure.
import type { Role } from '../../transcript/roles.js';
import type { Conversation, ConversationWord } from '../types.js';
import { type CompiledPhrase, foldWord, type OutcomeKind, type PhraseWord } from './lexicon.js';

export interface Detection {
  kind: OutcomeKind;
  line: number;
  speaker: number;
  role?: Role;
  /** When the phrase was said (s from the start of the recording). */
  start: number;
  end: number;
  /** The lexicon phrase that matched (the first of the kind in the sentence). */
  phrase: string;
  /** The sentence it was said in, as the redacted transcript has it. */
  text: string;
  /** 0-based place of the sentence within its turn. */
  sentence: number;
}

/** A word of the text as compared: `key` '' for a mask (only `*` matches it). */
interface Token {
  key: string;
  word: number;
}

const NEGATORS = new Set(['not', 'never', 'no', 'nobody', 'nothing', 'hasnt', 'havent', 'hadnt', 'isnt', 'wasnt', 'werent', 'arent', 'didnt', 'dont', 'doesnt', 'wont', 'cant', 'cannot', 'couldnt', 'wouldnt', 'shouldnt']);
/** How many words before a phrase a negation reverses it. */
const NEGATION_REACH = 3;

const isMask = (text: string) => /^\[[^\]]*\]$|^[^\p{L}\p{N}]{2,}$/u.test(text) || /^\*+$/.test(text);

function tokensOf(words: readonly ConversationWord[]): Token[] {
  const out: Token[] = [];
  words.forEach((w, word) => {
    if (isMask(w.text)) return void out.push({ key: '', word });
    // A word may hold more than one ("log-in", "card,"): letters and digits, apostrophes kept inside.
    for (const m of w.text.matchAll(/[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*/gu)) out.push({ key: foldWord(m[0]), word });
  });
  return out;
}

/** The sentences of a turn as word ranges: a word ending in . ? or ! ends one; no punctuation, one sentence. */
function sentencesOf(words: readonly ConversationWord[]): { from: number; to: number }[] {
  const out: { from: number; to: number }[] = [];
  let from = 0;
  words.forEach((w, i) => {
    if (/[.?!]["')\]]*$/.test(w.text) && !isMask(w.text)) {
      out.push({ from, to: i + 1 });
      from = i + 1;
    }
  });
  if (from < words.length) out.push({ from, to: words.length });
  return out;
}

const matches = (p: PhraseWord, key: string): boolean =>
  'any' in p ? true : key !== '' && ('exact' in p ? key === p.exact : key.startsWith(p.prefix));

/** Where `phrase` first starts in `tokens` (not after a negation when `guarded`), or -1. */
function find(tokens: readonly Token[], phrase: readonly PhraseWord[], guarded: boolean): number {
  outer: for (let i = 0; i + phrase.length <= tokens.length; i++) {
    for (let k = 0; k < phrase.length; k++) if (!matches(phrase[k], tokens[i + k].key)) continue outer;
    if (guarded && tokens.slice(Math.max(0, i - NEGATION_REACH), i).some((t) => NEGATORS.has(t.key))) continue;
    return i;
  }
  return -1;
}

export function detectOutcomes(conversation: Conversation, lexicon: readonly CompiledPhrase[]): Detection[] {
  const out: Detection[] = [];
  for (const u of conversation.utterances) {
    sentencesOf(u.words).forEach(({ from, to }, sentence) => {
      const words = u.words.slice(from, to);
      const tokens = tokensOf(words);
      const found = new Set<OutcomeKind>();
      for (const p of lexicon) {
        if (found.has(p.kind)) continue;
        const at = find(tokens, p.words, p.kind !== 'issue');
        if (at < 0) continue;
        found.add(p.kind);
        const first = words[tokens[at].word];
        const last = words[tokens[at + p.words.length - 1].word];
        out.push({
          kind: p.kind,
          line: u.line,
          speaker: u.speaker,
          ...(u.role && { role: u.role }),
          start: first.start,
          end: last.end,
          phrase: p.phrase,
          text: words.map((w) => w.text).join(' '),
          sentence,
        });
      }
    });
  }
  // Call order, then issue, outcome, action within a sentence.
  const order = { issue: 0, outcome: 1, action: 2 };
  return out.sort((a, b) => a.line - b.line || a.sentence - b.sentence || order[a.kind] - order[b.kind]);
}
