// Entities (resource 14) placed in the conversation: what the redaction core found (listed by their masks) gets
// the line, offset, length and speaker of its mask in the conversation's text; organizations worth listing
// (compromise's organizations(), on the already redacted text, in utterances with a capitalized word after their
// first) are added with redacted: false. Pure.
import nlp from 'compromise';
import { ENTITY_CATEGORY, type Entity } from '../schema/resources/conversationItems.js';
import type { Conversation } from './types.js';

/** Core entities given the place of their mask in the conversation, each occurrence claimed once, in order. */
export function placeEntities(entities: readonly Entity[], conversation: Conversation): Entity[] {
  const claimed = new Set<string>();
  return entities.map((e) => {
    if (typeof e.text !== 'string' || e.text === '') return e;
    for (const u of conversation.utterances) {
      let from = 0;
      for (;;) {
        const at = u.text.indexOf(e.text, from);
        if (at < 0) break;
        const key = `${u.line}:${at}`;
        if (!claimed.has(key)) {
          claimed.add(key);
          return { ...e, line: u.line, offset: at, length: e.text.length, speaker: u.speaker };
        }
        from = at + 1;
      }
    }
    return e;
  });
}

/** Organizations named in the conversation (not redacted: no kind covers them). */
export function organizations(conversation: Conversation): Entity[] {
  const out: Entity[] = [];
  // compromise reads an utterance on its own (a millisecond or more each): a line said again word for word
  // ("Thank you for calling Northwind Card Services") is parsed once.
  const names = new Map<string, string[]>();
  for (const u of conversation.utterances) {
    // compromise finds organizations by their capitals: lower-case ASR text has none to find, and is not parsed
    // (a few ms an utterance). Masks are not names.
    if (!/\s[A-Z][a-z]/.test(u.text.replace(/\[[^\]]*\]/g, ''))) continue;
    let found = names.get(u.text);
    if (!found) {
      found = nlp(u.text).organizations().out('array') as string[];
      names.set(u.text, found);
    }
    for (const name of found) {
      const text = name.replace(/[.,;:!?]+$/, '').trim();
      const offset = u.text.indexOf(text);
      if (!text || text.startsWith('[') || offset < 0) continue;
      out.push({ text, engine: 'compromise', category: ENTITY_CATEGORY.organization, line: u.line, offset, length: text.length, speaker: u.speaker, redacted: false, isPii: false, isPci: false });
    }
  }
  return out;
}
