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
