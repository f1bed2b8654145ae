// Redaction of a conversation event record (post-call, and a real-call message carried as
// `{ realTimeMessage }`), failing closed: every string of the record is redacted by the class its schema
// declares beside the field (schema/fieldClass.ts), and anything the schema does not declare is content
// (schemaWalk.ts). The transcript shapes go first, as conversations, so that a value spoken across utterances
// is found (conversationStreams.ts); the record's own rule values are masked whole (hideRuleValues.ts). Found
// values are listed as entities (resource 14) by their masks only. The record's own rules (redactionTypes,
// contentGroups; see recordRules.ts) apply with the project/request rules everywhere.
import type { Entity } from '../schema/resources/conversationItems.js';
import { EventRecord } from '../schema/resources/eventRecord.js';
import { redactJsonV2, redactUtterances, redactVendorTranscript } from './conversationStreams.js';
import { hideRuleValues } from './hideRuleValues.js';
import { Masker } from './masks.js';
import { RecordRedactor } from './recordRedactor.js';
import type { RecordRules } from './recordRules.js';
import type { RedactionRule } from './rules.js';
import { SchemaWalk } from './schemaWalk.js';

type Json = Record<string, unknown>;

export interface RecordRedaction {
  record: EventRecord;
  entities: Entity[];
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A redacted record as it is kept: the entities found listed after the record's own, maskValues set, and
 * `redaction` (the policy it was redacted under, the windows marked) recorded.
 */
export function stampRedaction({ record, entities }: RecordRedaction, redaction: Record<string, unknown>): EventRecord {
  return { ...record, entities: [...(record.entities ?? []), ...entities], maskValues: true, redaction } as EventRecord;
}

/**
 * `owned`: the caller hands `input` over (a worker's own copy of a task): it is redacted in place instead of
 * copied first. Otherwise `input` is left as it was.
 */
export function redactRecord(input: EventRecord, rules: readonly RedactionRule[], masker: Masker, custom?: RecordRules, owned = false): RecordRedaction {
  const record = (owned ? input : structuredClone(input)) as Json;
  if (rules.length === 0 && !custom?.phrases.length && !custom?.kinds.length) return { record: record as EventRecord, entities: [] };
  // A value found in one place is masked wherever else it appears, said or written (a name given with "my name
  // is" in the transcript and alone in conversation.name). A first pass over a copy finds the values; the record
  // as sent is then redacted once, with them: looked for in text a pass had already masked in part ("zebulon
  // [PERSON]", the tagger having taken the surname), a value was not found and the rest of it stayed in clear.
  // The second pass reuses the first one's detections.
  const scout = new RecordRedactor(rules, new Masker(''), custom);
  redactPass(structuredClone(input) as Json, scout);
  const r = new RecordRedactor(rules, masker, custom, scout.propagation(), scout.detections);
  redactPass(record, r);
  return { record: record as EventRecord, entities: r.entities };
}

/** One pass over the whole record: its own rule values, the transcript shapes as conversations, the entities, then every field. */
function redactPass(record: Json, r: RecordRedactor): void {
  for (const holder of hideRuleValues(record, r.masker)) r.markDone(holder, 'value');
  const walk = new SchemaWalk(r);
  for (const holder of [record, record.processJob]) {
    if (!isObject(holder)) continue;
    redactVendorTranscript(holder.vendorATranscript, r);
    redactVendorTranscript(holder.vendorBTranscript, r);
  }
  if (isObject(record.processJob)) {
    redactJsonV2(record.processJob.transcript, r);
    redactJsonV2(record.processJob.transcriptRedacted, r);
  }
  redactUtterances(record.utterances, r);
  // The record's entities are marked redacted once their text is.
  for (const entity of Array.isArray(record.entities) ? record.entities.filter(isObject) : []) {
    if (typeof entity.text !== 'string') continue;
    const before = entity.text;
    entity.text = walk.content(before);
    if (entity.text !== before) entity.redacted = true;
    r.markDone(entity, 'text');
  }
  walk.record(record, EventRecord);
}
