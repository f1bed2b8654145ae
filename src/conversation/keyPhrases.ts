// Key phrases (resource 13): the runs of content words of each utterance (npm `keyword-extractor`, MIT: its
// English stop words cut the text into chained phrases, RAKE-style), scored by how often the conversation repeats
// them (count / the most repeated phrase's count, 0..1). A phrase said twice or more is a topic (isTopic); one that
// follows a request cue ("i want", "i need", "calling about", "i'd like", "cancel", "help with") is an intent
// (isIntent). Masks ([PERSON], ...) and digits are never phrases. Pure and linear in the conversation (compromise's
// noun phrases were tried first: 1.8 s for a 10-minute call, held on the event loop).
import extractor from 'keyword-extractor';
import { scoreText } from './sentiment.js';
import type { Conversation } from './types.js';

export interface KeyPhraseResult {
  phrase: string;
  score: number;
  speaker: number;
  line: number;
  start: number;
  end: number;
  sentiment: number;
  isTopic: boolean;
  isIntent: boolean;
}

const INTENT_CUE = /\b(i want|i need|i would like|i'd like|calling about|calling to|help with|cancel|trying to|looking for)\b/;
const FILLER = new Set(['yeah', 'okay', 'ok', 'uh', 'um', 'hmm', 'hi', 'hello', 'bye', 'goodbye', 'thanks', 'thank', 'please', 'sir', 'maam', "ma'am", 'sure', 'right', 'alright', 'great', 'yes', 'no', 'oh', 'well', 'just', 'really', 'gonna', 'gotta', 'like']);
const MAX_WORDS = 4;

export function keyPhrases(conversation: Conversation, limit = 50): KeyPhraseResult[] {
  const seen = new Map<string, KeyPhraseResult & { count: number }>();
  for (const u of conversation.utterances) {
    const text = u.text.replace(/\[[^\]]*\]/g, ' , ').toLowerCase();
    if (!/\p{L}/u.test(text)) continue;
    const cue = INTENT_CUE.exec(text);
    const chains = extractor.extract(text, { language: 'english', remove_digits: true, return_changed_case: true, remove_duplicates: false, return_chained_words: true }) as string[];
    for (const chain of chains) {
      const words = chain
        .replace(/[^\p{L}\p{N}' -]+/gu, ' ')
        .split(/\s+/)
        .filter((w) => w && !FILLER.has(w));
      const phrase = words.join(' ');
      if (!phrase || words.length > MAX_WORDS || phrase.length < 3) continue;
      const at = text.indexOf(phrase);
      const isIntent = cue !== null && at > cue.index;
      const existing = seen.get(phrase);
      if (existing) {
        existing.count++;
        existing.isIntent ||= isIntent;
        continue;
      }
      const first = u.words.find((w) => w.text.toLowerCase() === words[0]) ?? u.words[0];
      const last = [...u.words].reverse().find((w) => w.text.toLowerCase() === words[words.length - 1]) ?? u.words[u.words.length - 1];
      seen.set(phrase, {
        phrase,
        count: 1,
        score: 0,
        speaker: u.speaker,
        line: u.line,
        start: first.start,
        end: Math.max(first.end, last.end),
        sentiment: scoreText(u.text).polarity,
        isTopic: false,
        isIntent,
      });
    }
  }
  const all = [...seen.values()];
  const most = all.reduce((m, p) => Math.max(m, p.count), 1);
  return all
    .map(({ count, ...p }) => ({ ...p, score: Math.round((count / most) * 1000) / 1000, isTopic: count >= 2 }))
    .sort((a, b) => b.score - a.score || a.line - b.line)
    .slice(0, limit);
}
