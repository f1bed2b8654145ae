// The redaction work that may run off the event loop, as plain data in and plain data out: what a worker
// thread receives (structured clone) and what it answers. `perform` is the one implementation; it runs in a
// worker (workers/worker.ts) or inline on the caller's thread for small inputs (workers/index.ts). Post-call
// processing (conversation/enrich.ts) is here too: it is CPU work over the whole record, and its further
// masking is the same record redaction, done inline where the processing runs. A post-call record's
// redaction and processing are one task (postCall): the record crosses to a worker and back once.
import { enrichRecord } from '../conversation/enrich.js';
import { type CompiledInsight, markValidated } from '../conversation/insights/definitions.js';
import { recordRoleOptions } from '../conversation/normalize.js';
import { realTimeFields } from '../conversation/realTime.js';
import { jobInsightRedaction, type JobInsightRedaction } from '../conversation/insights/jobRedactions.js';
import type { Insight } from '../schema/resources/insight.js';
import type { RealTimeMessage } from '../schema/resources/realTimeMessage.js';
import type { ProductEntry } from '../conversation/products.js';
import type { CallOutcomesConfig } from '../conversation/callOutcomes/lexicon.js';
import { FAILED, PROCESSED } from '../conversation/recordStatus.js';
import { type Switches, switchesOf } from '../conversation/switches.js';
import { ServiceError } from '../errors.js';
import { keypadEntries } from '../audio/keypadEntries.js';
import { type ChannelLoudness, loudnessOf } from '../audio/loudness.js';
import type { RoleOptions } from '../transcript/roles.js';
import type { AudioSpan, RedactionPcm } from '../audio/redactAudio.js';
import type { EventRecord } from '../schema/resources/eventRecord.js';
import type { Transcript } from '../transcript/types.js';
import { type MessageRedaction, redactAcrossMessages } from '../redact/conversationMessages.js';
import { Masker } from '../redact/masks.js';
import { type RecordInput, recordRules } from '../redact/recordRules.js';
import { type RecordRedaction, redactRecord, stampRedaction } from '../redact/redactRecord.js';
import { redactText, type TextRedaction } from '../redact/redactText.js';
import { type RedactionResult, redactTranscript } from '../redact/redactTranscript.js';
import type { RedactionRule } from '../redact/rules.js';
import type { CueWindowsConfig } from '../schema/resources/projectConfig.js';
import { findSensitiveWindows } from '../redact/windows/sensitiveWindows.js';
import type { SensitiveWindow } from '../redact/windows/types.js';
import { TEXT_INPUT_MODEL, windowPlan, type WindowLevel } from '../redact/windows/windowLevel.js';

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

/** Loudness per channel over a decoded recording (audio/loudness.ts). */
export interface LoudnessTask {
  kind: 'loudness';
  channels: Int16Array[];
  sampleRate: number;
}

/** Post-call processing of a redacted record (enrichRecord), insights already parsed (plain data). */
export interface EnrichTask {
  kind: 'enrich';
  record: EventRecord;
  insights: readonly CompiledInsight[];
  roles: RoleOptions;
  switches: Switches;
  direction?: string;
  products?: readonly ProductEntry[];
  callOutcomes?: CallOutcomesConfig;
  /**
   * Further masking (insight redaction flags, profanity) with the service's Hash key and the record's
   * contentGroups; absent where the processing must not redact (a job's analysis: it would be refused).
   */
  redaction?: { hashKey: string; contentGroups?: EventRecord['contentGroups'] };
}

/** What processing a post-call record takes besides the record (what depends on the record is read from it). */
export interface ProcessOptions {
  /** Every insight that runs: the record's own, then its project's. */
  insights: readonly CompiledInsight[];
  /** The record's own insights: answered marked expressionValidated. */
  own: readonly CompiledInsight[];
  /** The project's agent_location (campaign.agentLocation comes first). */
  agentLocation?: string;
  /** The project's product catalogue (listed among the entities when said). */
  products?: readonly ProductEntry[];
  /** The project's issue / outcome / action-item phrases. */
  callOutcomes?: CallOutcomesConfig;
  /** The service's Hash key, for the masking processing asks for. */
  hashKey: string;
}

/** A record processed (status processed), or, when processing failed unexpectedly, as it came (status failed). */
export interface Processed {
  record: EventRecord;
  failure?: string;
}

/**
 * A post-call record, redacted (when `redact` is given: redactRecord with the record's own rules, the result
 * stamped with `redact.stamp`) and then processed (processRecord).
 */
export interface PostCallTask {
  kind: 'postCall';
  record: EventRecord;
  redact?: { rules: readonly RedactionRule[]; stamp: Record<string, unknown> };
  process: ProcessOptions;
}

/** Cue and number windows of a recognized call (findSensitiveWindows): a pass over every word of a long call. */
export interface WindowsTask {
  kind: 'windows';
  transcript: Transcript;
  kinds: string[];
  project?: CueWindowsConfig;
  /** How much window finding runs (windowLevel.ts); absent: full (every cue rule of the kinds). */
  level?: WindowLevel;
}

/** A real-call message redacted with its speaker's kept messages (conversationMessages.ts). */
export interface AcrossTask {
  kind: 'across';
  earlier: string[];
  text: string;
  rules: readonly RedactionRule[];
  hashKey: string;
  continues?: string;
  partial?: boolean;
}

/** Real-time insights on a final live message (realTimeFields): a match over the whole live call so far. */
export interface RealTimeTask {
  kind: 'realTime';
  earlier: readonly RealTimeMessage[];
  message: RealTimeMessage;
  insights: readonly CompiledInsight[];
}

/** A job's redacting insights run on its recognized transcript (jobInsightRedaction): every insight over every word. */
export interface JobInsightsTask {
  kind: 'jobInsights';
  transcript: Transcript;
  insights: readonly Insight[];
  options: { roles: RoleOptions; direction?: string };
}

export type RedactionTask = RecordTask | TextTask | TranscriptTask | KeypadTask | LoudnessTask | EnrichTask | PostCallTask | WindowsTask | RealTimeTask | JobInsightsTask | AcrossTask;

export interface TaskResults {
  record: RecordRedaction;
  text: TextRedaction;
  transcript: RedactionResult;
  keypad: AudioSpan[];
  loudness: ChannelLoudness[];
  windows: SensitiveWindow[];
  /** The enriched record (the processing's other outputs are not used by its callers). */
  enrich: EventRecord;
  postCall: Processed;
  across: MessageRedaction;
  realTime: ReturnType<typeof realTimeFields>;
  jobInsights: JobInsightRedaction;
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
    products: task.products,
    callOutcomes: task.callOutcomes,
    redact: async (record, rules) => {
      if (!redaction) throw new Error('this processing may not redact');
      return redactRecord(record, [], new Masker(redaction.hashKey), recordRules({ redactionTypes: [{ rules }], contentGroups: redaction.contentGroups }));
    },
  });
  return enriched.record;
}

/**
 * Post-call processing of a redacted record: enrichment with the roles, switches and direction its campaign and
 * processJob give, further masking through the redaction core. A refusal (ServiceError: the input's fault) stays
 * a refusal; any other failure answers the record as it came, marked failed, with why.
 */
export async function processRecord(record: EventRecord, options: ProcessOptions): Promise<Processed> {
  const validated = markValidated(record.insights, options.own);
  try {
    const enriched = await enrich({
      kind: 'enrich',
      record,
      insights: options.insights,
      roles: recordRoleOptions(record, options.agentLocation),
      products: options.products,
      callOutcomes: options.callOutcomes,
      switches: switchesOf(record.campaign as Record<string, unknown> | undefined, record.processJob as Record<string, unknown> | undefined),
      direction: (record.campaign?.direction as string | undefined) ?? (record.processJob?.direction as string | undefined) ?? record.realTimeMessage?.direction,
      redaction: { hashKey: options.hashKey, contentGroups: record.contentGroups },
    });
    return { record: { ...enriched, ...(validated && { insights: markValidated(enriched.insights, options.own) }), status: PROCESSED } };
  } catch (error) {
    if (error instanceof ServiceError) throw error;
    return { record: { ...record, status: FAILED }, failure: `processing failed: ${(error as Error).name}` };
  }
}

/** A post-call record redacted (as a record task does it, then stamped) and processed, where the task runs. */
function postCall(task: PostCallTask, owned: boolean): Promise<Processed> {
  const { redact } = task;
  const redacted = redact ? stampRedaction(redactRecord(task.record, redact.rules, new Masker(task.process.hashKey), recordRules(task.record), owned), redact.stamp) : task.record;
  return processRecord(redacted, task.process);
}

/**
 * Runs one task where it is called (a promise for the processing tasks). `owned`: the task is the caller's to
 * spend (a worker's copy): a record is redacted in place rather than copied first (recordRules are read before).
 */
export function perform<T extends RedactionTask>(task: T, owned?: boolean): TaskResult<T> | Promise<TaskResult<T>>;
export function perform(task: RedactionTask, owned = false): TaskResults[keyof TaskResults] | Promise<TaskResults[keyof TaskResults]> {
  switch (task.kind) {
    case 'enrich':
      return enrich(task);
    case 'postCall':
      return postCall(task, owned);
    case 'record': {
      const custom = recordRules(task.ruleSource ?? task.record);
      return redactRecord(task.record, task.rules, new Masker(task.hashKey), custom, owned);
    }
    case 'text': {
      const custom = task.ruleSource ? recordRules(task.ruleSource) : undefined;
      return redactText(task.text, task.rules, new Masker(task.hashKey), custom);
    }
    case 'transcript':
      return redactTranscript(task.transcript, task.rules, new Masker(task.hashKey));
    case 'keypad':
      return keypadEntries(task.pcm);
    case 'loudness':
      return loudnessOf(task.channels, task.sampleRate);
    case 'windows': {
      const plan = windowPlan(task.level ?? 'full', task.kinds, task.project, task.transcript.model === TEXT_INPUT_MODEL);
      return plan ? findSensitiveWindows(task.transcript, plan) : [];
    }
    case 'across':
      return redactAcrossMessages(task.earlier, task.text, task.rules, new Masker(task.hashKey), task.continues, task.partial);
    case 'realTime':
      return realTimeFields(task.earlier, task.message, task.insights);
    case 'jobInsights':
      return jobInsightRedaction(task.transcript, task.insights, task.options);
  }
}
