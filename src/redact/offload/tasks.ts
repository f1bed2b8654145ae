// The redaction work that may run off the event loop, as plain data in and plain data out: what a worker
// thread receives (structured clone) and what it answers. `perform` is the one implementation; it runs in a
// worker (offload/worker.ts) or inline on the caller's thread for small inputs (offload/index.ts). Post-call
// processing (conversation/enrich.ts) is here too: it is CPU work over the whole record, and its further
// masking is the same record redaction, done inline where the processing runs.
import { enrichRecord } from '../../conversation/enrich.js';
import type { CompiledInsight } from '../../conversation/insights/definitions.js';
import type { Switches } from '../../conversation/switches.js';
import { keypadEntries } from '../../jobs/jobRedaction.js';
import type { RoleOptions } from '../../transcript/roles.js';
import type { AudioSpan, RedactionPcm } from '../../audio/redactAudio.js';
import type { EventRecord } from '../../schema/resources/eventRecord.js';
import type { Transcript } from '../../transcript/types.js';
import { Masker } from '../masks.js';
import { type RecordInput, recordRules } from '../recordRules.js';
import { type RecordRedaction, redactRecord } from '../redactRecord.js';
import { redactText, type TextRedaction } from '../redactText.js';
import { type RedactionResult, redactTranscript } from '../redactTranscript.js';
import type { RedactionRule } from '../rules.js';
import type { CueWindowsConfig } from '../../schema/resources/projectConfig.js';
import { findSensitiveWindows } from '../windows/sensitiveWindows.js';
import type { SensitiveWindow } from '../windows/types.js';

/**
 * A record's own rules (redactionTypes, contentGroups) are sent as the record's data and rebuilt with
 * recordRules() where the work runs: compiled patterns (RE2) cannot cross a thread.
 */
export type RuleSource = RecordInput;

export interface RecordTask {
  kind: 'record';
  record: EventRecord;
  rules: readonly RedactionRule[];
  hashKey: string;
  /** Where the record's own rules come from (the record itself unless said otherwise). */
  ruleSource?: RuleSource;
}

export interface TextTask {
  kind: 'text';
  text: string;
  rules: readonly RedactionRule[];
  hashKey: string;
  ruleSource?: RuleSource;
}

export interface TranscriptTask {
  kind: 'transcript';
  transcript: Transcript;
  rules: readonly RedactionRule[];
  hashKey: string;
}

/** Keypad-tone detection over a decoded recording (only what the detector reads). */
export interface KeypadTask {
  kind: 'keypad';
  pcm: Pick<RedactionPcm, 'samples' | 'sampleRate' | 'channels'>;
}

/** Post-call processing of a redacted record (enrichRecord), insights already parsed (plain data). */
export interface EnrichTask {
  kind: 'enrich';
  record: EventRecord;
  insights: readonly CompiledInsight[];
  roles: RoleOptions;
  switches: Switches;
  direction?: string;
  /**
   * Further masking (insight redaction flags, profanity) with the service's Hash key and the record's
   * contentGroups; absent where the processing must not redact (a job's analysis: it would be refused).
   */
  redaction?: { hashKey: string; contentGroups?: EventRecord['contentGroups'] };
}

/** Cue and number windows of a recognized call (findSensitiveWindows): a pass over every word of a long call. */
export interface WindowsTask {
  kind: 'windows';
  transcript: Transcript;
  kinds: string[];
  project?: CueWindowsConfig;
}

export type RedactionTask = RecordTask | TextTask | TranscriptTask | KeypadTask | EnrichTask | WindowsTask;

export interface TaskResults {
  record: RecordRedaction;
  text: TextRedaction;
  transcript: RedactionResult;
  keypad: AudioSpan[];
  windows: SensitiveWindow[];
  /** The enriched record (the processing's other outputs are not used by its callers). */
  enrich: EventRecord;
}

export type TaskResult<T extends RedactionTask> = TaskResults[T['kind']];

/** The enriched record of an EnrichTask (async: enrichRecord's redaction hook is). */
async function enrich(task: EnrichTask): Promise<EventRecord> {
  const { redaction } = task;
  const enriched = await enrichRecord(task.record, {
    insights: task.insights,
    roles: task.roles,
    switches: task.switches,
    direction: task.direction,
    redact: async (record, rules) => {
      if (!redaction) throw new Error('this processing may not redact');
      return redactRecord(record, [], new Masker(redaction.hashKey), recordRules({ redactionTypes: [{ rules }], contentGroups: redaction.contentGroups }));
    },
  });
  return enriched.record;
}

/** Runs one task where it is called (a promise for the processing task). */
export function perform<T extends RedactionTask>(task: T): TaskResult<T> | Promise<TaskResult<T>>;
export function perform(task: RedactionTask): TaskResults[keyof TaskResults] | Promise<TaskResults[keyof TaskResults]> {
  switch (task.kind) {
    case 'enrich':
      return enrich(task);
    case 'record': {
      const custom = recordRules(task.ruleSource ?? task.record);
      return redactRecord(task.record, task.rules, new Masker(task.hashKey), custom);
    }
    case 'text': {
      const custom = task.ruleSource ? recordRules(task.ruleSource) : undefined;
      return redactText(task.text, task.rules, new Masker(task.hashKey), custom);
    }
    case 'transcript':
      return redactTranscript(task.transcript, task.rules, new Masker(task.hashKey));
    case 'keypad':
      return keypadEntries(task.pcm);
    case 'windows':
      return findSensitiveWindows(task.transcript, { kinds: task.kinds, project: task.project });
  }
}
