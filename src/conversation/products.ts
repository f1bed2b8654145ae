// Products among a call's entities (resource 14, issue 18): the project's own catalogue (`products` in its
// configuration, each a name and the ways callers say it) found in the conversation's already redacted text.
// Nothing in a call says "this is a product" by itself — a contact center knows what it sells, so the catalogue
// is the source, and matching is made to survive ASR: case, punctuation and accents are ignored, and a name is
// found however it is split into words ("iPhone" = "i phone", "Visa Platinum" = "visaplatinum"). Masks are
// never matched. Pure.
import { ENTITY_CATEGORY, type Entity } from '../schema/resources/conversationItems.js';
import type { Conversation } from './types.js';

export interface ProductEntry {
  name: string;
  aliases?: readonly string[];
}

/** The longest name, in words, tried at each position. */
const MAX_WORDS = 8;

/** Letters and digits only, lower case, accents dropped: how a name is compared. */
const fold = (s: string) => s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');

interface Token {
  key: string;
  start: number;
  end: number;
}

/**
 * The words of a line with their places. A mask ("[PERSON]", "****") is a stop (key ''): never matched, and no
 * name is joined across it.
 */
function tokens(text: string): Token[] {
  const out: Token[] = [];
  for (const m of text.matchAll(/\[[^\]]*\]|[^\s\p{L}\p{N}]{2,}|[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu)) {
    const start = m.index!;
    const word = /^[\p{L}\p{N}]/u.test(m[0]);
    out.push({ key: word ? fold(m[0]) : '', start, end: start + m[0].length });
  }
  return out;
}

/** A lookup from a folded name (its words joined) to the product's 1-based place in the catalogue. */
export function productIndex(catalogue: readonly ProductEntry[]): Map<string, number> {
  const index = new Map<string, number>();
  catalogue.forEach((p, i) => {
    for (const name of [p.name, ...(p.aliases ?? [])]) {
      const key = fold(name);
      // The first product to claim a name keeps it.
      if (key && !index.has(key)) index.set(key, i + 1);
    }
  });
  return index;
}

/** Each mention of a catalogue product, longest name first at each place, with its line, offset and speaker. */
export function products(conversation: Conversation, catalogue: readonly ProductEntry[]): Entity[] {
  if (catalogue.length === 0) return [];
  const index = productIndex(catalogue);
  const out: Entity[] = [];
  for (const u of conversation.utterances) {
    const words = tokens(u.text);
    for (let i = 0; i < words.length; ) {
      let found: { end: number; product: number } | undefined;
      let joined = '';
      const spans: string[] = [];
      for (let j = i; j < Math.min(words.length, i + MAX_WORDS) && words[j].key !== ''; j++) {
        joined += words[j].key;
        spans.push(joined);
      }
      for (let n = spans.length; n >= 1 && !found; n--) {
        const product = index.get(spans[n - 1]);
        if (product !== undefined) found = { end: i + n, product };
      }
      if (!found) {
        i++;
        continue;
      }
      const offset = words[i].start;
      const length = words[found.end - 1].end - offset;
      out.push({
        text: u.text.slice(offset, offset + length),
        engine: 'catalogue',
        category: ENTITY_CATEGORY.product,
        subCategory: found.product,
        line: u.line,
        offset,
        length,
        speaker: u.speaker,
        confidence: 1,
        redacted: false,
        isPii: false,
        isPci: false,
      });
      i = found.end;
    }
  }
  return out;
}
