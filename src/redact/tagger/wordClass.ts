// Whether a word alone reads as an adjective, adverb, verb or interjection to compromise ("pretty", "sunny",
// "honestly", "nope"): compromise's lexicon lists about 20,000 words (COMMON_WORDS) but infers the rest from
// their form, and a word it infers so is no name. Asked only for a tagged Person run with no other evidence (a
// handful of words a call), remembered per word.
import nlp from 'compromise';

const memo = new Map<string, boolean>();
const MEMO_MAX = 20_000;
const NOT_NAME = new Set(['Adjective', 'Adverb', 'Verb', 'Expression', 'Conjunction', 'Preposition', 'Determiner', 'Pronoun', 'QuestionWord']);

export function wordClassNotName(w: string): boolean {
  // compromise reads English: a word with other letters ("ân", "tanacković") it folds to another word ("an")
  if (!/^[a-z'-]+$/.test(w)) return false;
  const hit = memo.get(w);
  if (hit !== undefined) return hit;
  const terms = (nlp(w).json() as { terms?: { tags?: string[] }[] }[])[0]?.terms ?? [];
  const tags = terms.length === 1 ? (terms[0].tags ?? []) : [];
  const out = !tags.includes('Person') && tags.some((t) => NOT_NAME.has(t));
  if (memo.size < MEMO_MAX) memo.set(w, out);
  return out;
}
