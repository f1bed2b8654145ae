// Redaction of a conversation event record (post-call): every text-bearing field the interface names is
// searched with the same recognizers and masked with the same rules — vendor transcripts' word events,
// json-v2 results, utterances' text and formattedText, real-time message text, insight lines, key phrases,
// entities and analytics phrases. Found values are listed as entities (resource 14) by their masks only.
// The record's own rules (redactionTypes, contentGroups; see recordRules.ts) apply with the project/request
// rules in every one of those fields, and the literal values they name are masked in the record too.
import type { Entity } from '../schema/resources/conversationItems.js';
import type { EventRecord } from '../schema/resources/eventRecord.js';
import { hideRuleValues } from './hideRuleValues.js';
import type { Masker } from './masks.js';
import type { RecordRules } from './recordRules.js';
import { redactText, wordSpans } from './redactText.js';
import type { RedactionRule } from './rules.js';
import { ignoredWords, kindRules } from './spans.js';
import { docFromText } from './recognizers/doc.js';

const PCI_KINDS = new Set(['CreditCardNumber', 'CVV', 'ExpirationDate']);

type Json = Record<string, unknown>;

export interface RecordRedaction {
  record: EventRecord;
  entities: Entity[];
}

export function redactRecord(input: EventRecord, rules: readonly RedactionRule[], masker: Masker, custom?: RecordRules): RecordRedaction {
  const record = structuredClone(input) as Json;
  const entities: Entity[] = [];
  if (rules.length === 0 && !custom?.phrases.length && !custom?.kinds.length) return { record: record as EventRecord, entities };
  hideRuleValues(record, masker);
  const note = (kind: string, replacement: string, confidence: number, extra: Partial<Entity> = {}) =>
    entities.push({ text: replacement, confidence, engine: 'scrubline', redacted: true, isPii: true, isPci: PCI_KINDS.has(kind), ...extra });

  const text = (holder: Json | undefined, field: string, extra: Partial<Entity> = {}) => {
    const value = holder?.[field];
    if (typeof value !== 'string' || value === '') return;
    const result = redactText(value, rules, masker, custom);
    if (result.found.length === 0) return;
    holder![field] = result.text;
    for (const f of result.found) note(f.rule.kind, f.replacement, f.confidence, { ...extra, offset: f.offset, length: f.length });
  };

  // Vendor shapes: the words of each utterance's events.
  const vendor = (transcript: Json | undefined) => {
    for (const [line, utterance] of ((transcript?.utterances as Json[] | undefined) ?? []).entries()) {
      const events = utterance.events as Json[] | undefined;
      if (!events?.length) continue;
      const words = events.map((e) => String(e.word ?? ''));
      const spans = wordSpans(words, rules, custom);
      if (spans.length === 0) continue;
      const out: Json[] = [];
      let next = 0;
      for (const span of spans) {
        out.push(...events.slice(next, span.wordStart));
        const covered = events.slice(span.wordStart, span.wordEnd);
        const replacement = masker.mask(span.rule, words.slice(span.wordStart, span.wordEnd).join(' '));
        if (replacement !== '') {
          out.push({ word: replacement, wordex: replacement, start: covered[0].start, end: covered[covered.length - 1].end, confidence: 1 });
        }
        note(span.rule.kind, replacement, span.confidence, { line, speaker: (utterance.metadata as Json | undefined)?.channel as number | undefined });
        next = span.wordEnd;
      }
      out.push(...events.slice(next));
      utterance.events = out;
    }
    // A name field is a name whatever a recognizer makes of it: masked whole as a Person when that kind is on,
    // unless it is allow-listed, or the record's own values claim part of it (they come first).
    const cti = transcript?.ctidata as Json | undefined;
    const person = kindRules(rules, custom).get('Person')?.rule;
    for (const field of ['full_name', 'user_name']) {
      const value = cti?.[field];
      if (typeof value !== 'string' || !value) continue;
      const own = redactText(value, [], masker, custom && { ...custom, kinds: [] });
      const allowed = ignoredWords(docFromText(value), custom).every(Boolean);
      if (person && !allowed && own.found.length === 0) cti![field] = masker.mask(person, value);
      else text(cti, field);
    }
  };

  // json-v2: the word results of each channel, in order.
  const jsonV2 = (transcript: Json | undefined) => {
    const results = transcript?.results as Json[] | undefined;
    if (!results?.length) return;
    const channels = new Map<string, number[]>();
    results.forEach((r, i) => {
      if (r.type === 'word') channels.set(String(r.channel ?? ''), [...(channels.get(String(r.channel ?? '')) ?? []), i]);
    });
    const drop = new Set<number>();
    for (const indices of channels.values()) {
      const words = indices.map((i) => String(((results[i].alternatives as Json[] | undefined)?.[0]?.content as string | undefined) ?? ''));
      // json-v2 has no utterances: a line (for redactLine and context) ends at a result marked is_eos.
      // The end of sentence may be marked on the word or on a punctuation result after it.
      const lineStarts = indices.flatMap((i, k) => (k > 0 && results.slice(indices[k - 1], i).some((r) => r.is_eos === true) ? [k] : []));
      for (const span of wordSpans(words, rules, custom, { lineStarts })) {
        const first = results[indices[span.wordStart]];
        const last = results[indices[span.wordEnd - 1]];
        const replacement = masker.mask(span.rule, words.slice(span.wordStart, span.wordEnd).join(' '));
        const alternative = { ...((first.alternatives as Json[] | undefined)?.[0] ?? {}), content: replacement, confidence: 1 };
        results[indices[span.wordStart]] = { ...first, end_time: last.end_time, alternatives: [alternative] };
        for (let k = span.wordStart + (replacement === '' ? 0 : 1); k < span.wordEnd; k++) drop.add(indices[k]);
        note(span.rule.kind, replacement, span.confidence);
      }
    }
    transcript!.results = results.filter((_, i) => !drop.has(i));
  };

  const job = record.processJob as Json | undefined;
  for (const holder of [record, job]) {
    if (!holder) continue;
    vendor(holder.vendorATranscript as Json | undefined);
    vendor(holder.vendorBTranscript as Json | undefined);
    text(holder.realTimeMessage as Json | undefined, 'text');
  }
  jsonV2(job?.transcript as Json | undefined);
  jsonV2(job?.transcriptRedacted as Json | undefined);
  for (const [line, utterance] of ((record.utterances as Json[] | undefined) ?? []).entries()) {
    const extra = { line, speaker: utterance.speaker as number | undefined };
    text(utterance, 'text', extra);
    // formattedText repeats the same values in another form: masked, but not counted twice.
    const before = entities.length;
    text(utterance, 'formattedText', extra);
    entities.length = before;
  }
  for (const line of (record.insightLines as Json[] | undefined) ?? []) {
    text(line, 'value');
    text(line, 'responseValue');
  }
  for (const phrase of (record.keyPhrases as Json[] | undefined) ?? []) text(phrase, 'phrase');
  for (const entity of (record.entities as Json[] | undefined) ?? []) {
    const before = entity.text;
    text(entity, 'text');
    if (entity.text !== before) entity.redacted = true;
  }
  for (const insight of ((record.analytics as Json | undefined)?.insights as Json[] | undefined) ?? []) {
    text(insight, 'phrase');
    text(insight, 'response_phrase');
  }
  return { record: record as EventRecord, entities };
}
