// Whether letter case says anything in a document: not in speech, nor in written text with no capital anywhere
// (typed in lower case, or ASR output sent as text). Read once per document: a scan of the whole text per word or
// per run made detection quadratic on long lower-case text.
import type { Doc } from './doc.js';

const caselessDocs = new WeakMap<Doc, boolean>();

/** Speech, or written text with no capital letter at all. */
export function caseless(doc: Doc): boolean {
  if (doc.spoken) return true;
  let lower = caselessDocs.get(doc);
  if (lower === undefined) caselessDocs.set(doc, (lower = !/\p{Lu}/u.test(doc.text)));
  return lower;
}

const capitalsByDoc = new WeakMap<Doc, Int8Array>();

/**
 * Whether word i starts with a capital letter (punctuation before it skipped): read once per word of a document
 * (the rules ask it of the same words many times), as /^\p{Lu}/ on the raw word without what precedes its first
 * letter; false for a word index outside the doc.
 */
export function capitalised(doc: Doc, i: number): boolean {
  const w = doc.words[i];
  if (w === undefined) return false;
  let caps = capitalsByDoc.get(doc);
  if (caps === undefined || caps.length !== doc.words.length) capitalsByDoc.set(doc, (caps = new Int8Array(doc.words.length).fill(-1)));
  let c = caps[i];
  if (c === -1) caps[i] = c = /^\p{Lu}/u.test(w.raw.replace(/^[^\p{L}]+/u, '')) ? 1 : 0;
  return c === 1;
}
