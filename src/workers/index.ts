// Redaction off the event loop: detection over a record, a transcript or a message, and keypad-tone detection
// over a recording, run on worker threads (workers/pool.ts) so that no input, however large or hostile, keeps
// the service from answering other requests. Every function takes plain data and answers what the inline
// function would; an error thrown in the worker comes back as the same typed error (a refusal stays a 4xx).
//
// Small inputs run inline: the hop to a worker (copying the data both ways) costs more than their redaction,
// and a small input cannot hold the loop long (detection and record rules are linear in the input's size).
import type { ChannelLoudness } from '../audio/loudness.js';
import type { AudioSpan, RedactionPcm } from '../audio/redactAudio.js';
import { ServiceError } from '../errors.js';
import type { EventRecord } from '../schema/resources/eventRecord.js';
import type { Transcript } from '../transcript/types.js';
import type { MessageRedaction } from '../redact/conversationMessages.js';
import type { RecordRedaction } from '../redact/redactRecord.js';
import type { TextRedaction } from '../redact/redactText.js';
import type { RedactionResult } from '../redact/redactTranscript.js';
import type { RedactionRule } from '../redact/rules.js';
import type { CueWindowsConfig } from '../schema/resources/projectConfig.js';
import type { SensitiveWindow } from '../redact/windows/types.js';
import type { WindowLevel } from '../redact/windows/windowLevel.js';
import { receiveError, type TaskReply } from './errors.js';
import { PoolClosedError, runOnWorker, TaskTimeoutError } from './pool.js';
import { TASK_MS, WORKER_HEAP_MB } from '../workLimits.js';
import { type EnrichTask, perform, type PostCallTask, type Processed, type JobInsightsTask, type RealTimeTask, type RedactionTask, type RuleSource, type TaskResult, type TaskResults } from './tasks.js';

export { closeRedactionPool, openRedactionPool } from './pool.js';

/** The `reason` of a refusal because the redaction workers were stopped under it (the service is stopping). */
export const SHUTTING_DOWN = 'shutting_down';

/**
 * Inputs whose strings (plus one per object and array item) add up to at most this many characters run inline:
 * SCRUBLINE_REDACT_INLINE_CHARS (0: everything off the loop), else 16K (see bench/event-loop.ts for the figures).
 */
export const INLINE_MAX_CHARS = inlineMaxChars();

function inlineMaxChars(): number {
  const configured = Number(process.env.SCRUBLINE_REDACT_INLINE_CHARS);
  return process.env.SCRUBLINE_REDACT_INLINE_CHARS && configured >= 0 ? configured : 16 * 1024;
}

/** Whether the strings in `value` add up to more than `limit` characters; stops counting once they do. */
export function largerThan(value: unknown, limit: number): boolean {
  let total = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === 'string') total += item.length;
    else if (item !== null && typeof item === 'object') {
      for (const child of Array.isArray(item) ? item : Object.values(item)) {
        stack.push(child);
        if (++total > limit) return true;
      }
    }
    if (total > limit) return true;
  }
  return false;
}

let inFlight = 0;

/** Tasks handed to the worker pool and not yet answered (running or queued there). */
export function offLoopTasksInFlight(): number {
  return inFlight;
}

async function offLoop<T extends RedactionTask>(task: T, transferList?: ArrayBuffer[]): Promise<TaskResult<T>> {
  let reply: TaskReply<TaskResult<T>>;
  inFlight++;
  try {
    reply = await runOnWorker<TaskReply<TaskResult<T>>>(task, transferList);
  } catch (error) {
    throw refusalOf(error);
  } finally {
    inFlight--;
  }
  if (!reply.ok) throw receiveError(reply.error);
  return reply.result;
}

/**
 * Why a task did not finish, as the service tells it. Out of memory or out of time is the input's cost: refused as
 * such (422 naming the limit; the caller stores nothing). A pool closed under the task is the service stopping: 503,
 * reason `shutting_down` (a job's run leaves the job to be tried again).
 */
function refusalOf(error: unknown): unknown {
  // `permanent`: a job is not tried again for it (the same input would cost the same), it fails with the reason.
  if ((error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY') {
    const refusal = new ServiceError('too_large', `The input needs more memory to redact than a redaction worker has (${WORKER_HEAP_MB.env}); nothing of it was stored.`, [], { reason: 'worker_memory' });
    return Object.assign(refusal, { permanent: true });
  }
  if (error instanceof TaskTimeoutError) {
    const refusal = new ServiceError(
      'unprocessable',
      `Redacting and processing the input ran past the time limit of ${error.limitMs} ms per task (${TASK_MS.env}); its worker was stopped and nothing of it was stored.`,
      [],
      { reason: 'task_time_limit' },
    );
    return Object.assign(refusal, { permanent: true });
  }
  if (error instanceof PoolClosedError) return new ServiceError('unavailable', 'The service is stopping: the input was not redacted and nothing of it was stored; send it again.', [], { reason: SHUTTING_DOWN });
  return error;
}

/**
 * Record rules a small input may carry and still run inline: each rule is a pass over the input, so a small
 * record with many rules is as much work as a large one.
 */
const INLINE_MAX_RULES = 8;

/** The value rules a record carries (as sent: before duplicates are collapsed), counted up to a bound. */
function ruleCount(source: RuleSource | undefined): number {
  let n = 0;
  for (const group of source?.redactionTypes ?? []) n += group.rules?.length ?? 0;
  for (const group of source?.contentGroups ?? []) n += group.contentItems?.length ?? 0;
  return n;
}

/**
 * Inline only when small in both ways: the input's size, and the work it asks per character (its own rules, any
 * insights). Insights always run off the loop: their cost is the record's words times every expression's words.
 */
async function run<T extends RedactionTask>(task: T, size: unknown, heavy = false): Promise<TaskResult<T>> {
  return heavy || largerThan(size, INLINE_MAX_CHARS) ? offLoop(task) : await perform(task);
}

/** redactAcrossMessages (conversationMessages.ts): a real-call message with its speaker's kept messages. */
export function redactAcrossOffLoop(earlier: string[], text: string, rules: readonly RedactionRule[], hashKey: string, continues: string | undefined, partial = false): Promise<MessageRedaction> {
  return run({ kind: 'across', earlier, text, rules, hashKey, ...(continues && { continues }), ...(partial && { partial }) }, [earlier, text]);
}

/**
 * redactRecord over `record` with the project/request `rules` and the record's own rules, which the worker
 * rebuilds with recordRules(ruleSource) (the record itself unless a carrying record is named).
 */
export function redactRecordOffLoop(record: EventRecord, rules: readonly RedactionRule[], hashKey: string, ruleSource?: RuleSource): Promise<RecordRedaction> {
  return run({ kind: 'record', record, rules, hashKey, ...(ruleSource && { ruleSource }) }, [record, ruleSource], ruleCount(ruleSource ?? record) > INLINE_MAX_RULES);
}

/** redactText over `text`, with the rules of `ruleSource` (a record's redactionTypes/contentGroups) when given. */
export function redactTextOffLoop(text: string, rules: readonly RedactionRule[], hashKey: string, ruleSource?: RuleSource): Promise<TextRedaction> {
  return run({ kind: 'text', text, rules, hashKey, ...(ruleSource && { ruleSource }) }, [text, ruleSource], ruleCount(ruleSource) > INLINE_MAX_RULES);
}

/** redactTranscript over a job's transcript, detecting with the service's recognizers. */
export function redactTranscriptOffLoop(transcript: Transcript, rules: readonly RedactionRule[], hashKey: string): Promise<RedactionResult> {
  return run({ kind: 'transcript', transcript, rules, hashKey }, transcript);
}

/**
 * Post-call processing (conversation/enrich.ts) of a redacted record, off the loop when the record is large: the
 * enriched record. `redaction` carries what its further masking needs; without it, processing that would mask
 * fails (a job's analysis, which must not redact).
 */
export function enrichRecordOffLoop(record: EventRecord, options: Omit<EnrichTask, 'kind' | 'record'>): Promise<EventRecord> {
  return run({ kind: 'enrich', record, ...options }, record, options.insights.length > 0);
}

/**
 * A post-call record's redaction (when `redact` is given) and processing as one task, off the loop when the
 * record is large: one hop to a worker, the record copied there and back once.
 */
export function postCallOffLoop(record: EventRecord, redact: PostCallTask['redact'], process: PostCallTask['process']): Promise<Processed> {
  return run({ kind: 'postCall', record, ...(redact && { redact }), process }, record, process.insights.length > 0 || ruleCount(record) > INLINE_MAX_RULES);
}

/** Cue and number windows of a job's recognized call (findSensitiveWindows), off the loop when the call is long. */
export function sensitiveWindowsOffLoop(transcript: Transcript, kinds: readonly string[], project?: CueWindowsConfig, level?: WindowLevel): Promise<SensitiveWindow[]> {
  return run({ kind: 'windows', transcript, kinds: [...kinds], ...(project && { project }), ...(level && { level }) }, transcript);
}

/**
 * Real-time insights on a final live message (realTimeFields over the live call so far), off the loop once the
 * call or the insights are many: every final message is matched against the whole call.
 */
export function realTimeFieldsOffLoop(earlier: RealTimeTask['earlier'], message: RealTimeTask['message'], insights: RealTimeTask['insights']): Promise<TaskResults['realTime']> {
  const live = insights.filter((c) => c.insight.realTime === true);
  return run({ kind: 'realTime', earlier, message, insights: live }, [earlier, message], live.length > INLINE_MAX_RULES);
}

/** A job's redacting insights over its recognized transcript (jobInsightRedaction); off the loop when there are any. */
export function jobInsightRedactionOffLoop(transcript: Transcript, insights: JobInsightsTask['insights'], options: JobInsightsTask['options']): Promise<TaskResults['jobInsights']> {
  return run({ kind: 'jobInsights', transcript, insights, options }, transcript, insights.length > 0);
}

/** Keypad entries (jobRedaction's keypadEntries) of a decoded recording; always off the loop (a whole recording). */
export function keypadEntriesOffLoop(pcm: Pick<RedactionPcm, 'samples' | 'sampleRate' | 'channels'>): Promise<AudioSpan[]> {
  // A copy of the samples is handed over (transferred, not cloned again): the caller keeps its own for editing.
  const samples = pcm.samples.slice();
  return offLoop({ kind: 'keypad', pcm: { samples, sampleRate: pcm.sampleRate, channels: pcm.channels } }, [samples.buffer]);
}

/** Loudness per channel (audio/loudness.ts) of a decoded recording; always off the loop (a pass over every sample). */
export function loudnessOffLoop(channels: Int16Array[], sampleRate: number): Promise<ChannelLoudness[]> {
  // The samples are handed over (transferred, each buffer once): the caller decoded them for this alone.
  return offLoop({ kind: 'loudness', channels, sampleRate }, [...new Set(channels.map((c) => c.buffer as ArrayBuffer))]);
}
