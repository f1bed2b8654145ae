// Profane words of a conversation (npm `obscenity`, MIT: English dataset with its recommended transformers, which
// see through l33t and repeated letters while leaving "class" and "assessment" alone). Pure: it lists the words;
// enrich.ts masks them through the redaction core wherever they appear in the record.
import { englishDataset, englishRecommendedTransformers, RegExpMatcher } from 'obscenity';
import type { Conversation } from './types.js';

const matcher = new RegExpMatcher({ ...englishDataset.build(), ...englishRecommendedTransformers });

/** The distinct profane words said (as the conversation has them, lower case). */
export function profaneWords(conversation: Conversation): string[] {
  const found = new Set<string>();
  for (const u of conversation.utterances) {
    for (const w of u.words) {
      for (const part of w.text.split(/\s+/)) {
        const word = part.toLowerCase().replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
        if (word && !word.startsWith('[') && matcher.hasMatch(word)) found.add(word);
      }
    }
  }
  return [...found];
}
