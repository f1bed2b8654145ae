// English words that no name list of the project holds ("company", "battery", "sim", "dials", "quill", "sunny"):
// evidence that a tagged word is talk, not a name or a street. humannames (the tagger's widest name list) holds
// thousands of such words, and compromise infers a lower-case noun no differently from a name. Built by
// scripts/english-words.ts from SCOWL's word list; read once per thread, on first use (a Set: one lookup a word).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
/** The list, beside the tagger's model; compiled code (dist/) reads the same file from src/. */
export const WORDS_FILE = path.join(ROOT, 'src', 'redact', 'tagger', 'english-words.txt');

/** Given names that are also English words ("clay", "rob", "bill"). */
export const NAME_WORDS_FILE = path.join(ROOT, 'src', 'redact', 'tagger', 'english-name-words.txt');

const read = (file: string) => new Set(fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter((x) => x && !x.startsWith('#')) : []);
let words: Set<string> | undefined;
let nameWords: Set<string> | undefined;

/** Whether `w` (lower case) is a given name that is also an English word ("clay", "rob"). */
export function nameIsWord(w: string): boolean {
  return (nameWords ??= read(NAME_WORDS_FILE)).has(w);
}

/** Whether `w` (lower case) is an English word on no name list. */
export function englishWord(w: string): boolean {
  return (words ??= read(WORDS_FILE)).has(w);
}
