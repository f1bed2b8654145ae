// Key phrases (resource 13): the noun phrases of each utterance (compromise, MIT, already used by the person
// recognizer), scored by how often the conversation repeats them (count / the most repeated phrase's count,
// 0..1). A phrase said twice or more is a topic (isTopic); one that follows a request cue ("i want", "i need",
// "calling about", "i'd like", "cancel", "help with") is an intent (isIntent). Masks ([PERSON], ...) and stop
// words are never phrases. Pure; each utterance is parsed on its own (compromise is not linear in text length).
import nlp from 'compromise';
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
const STOP = new Set(['i', 'you', 'it', 'that', 'this', 'we', 'they', 'he', 'she', 'me', 'him', 'her', 'them', 'us', 'something', 'anything', 'everything', 'nothing', 'one', 'thing', 'things', 'what', 'which', 'who', 'there', 'here', 'yes', 'no', 'okay', 'ok', 'yeah', 'uh', 'um', 'hi', 'hello', 'bye', 'goodbye', 'thanks', 'thank', 'please', 'sir', 'maam', 'today', 'time', 'way', 'lot', 'bit']);
const MAX_WORDS = 4;

function clean(phrase: string): string {
  return phrase
    .toLowerCase()
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/[^\p{L}\p{N}' -]+/gu, ' ')
    .split(/\s+/)
    .filter((w) => w && !/^(the|a|an|my|your|our|their|his|her|its|this|that|these|those|some|any)$/.test(w))
    .join(' ')
    .trim();
}

export function keyPhrases(conversation: Conversation, limit = 50): KeyPhraseResult[] {
  const seen = new Map<string, KeyPhraseResult & { count: number }>();
  for (const u of conversation.utterances) {
    const text = u.text.replace(/\[[^\]]*\]/g, ' , ');
    if (!/\p{L}/u.test(text)) continue;
    const lower = u.text.toLowerCase();
    const cue = INTENT_CUE.exec(lower);
    for (const raw of nlp(text).nouns().out('array') as string[]) {
      const phrase = clean(raw);
      const words = phrase.split(' ');
      if (!phrase || words.length > MAX_WORDS || words.every((w) => STOP.has(w)) || /^\d+$/.test(phrase)) continue;
      const at = lower.indexOf(phrase);
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
