// Redaction off the event loop: detection over a record, a transcript or a message, and keypad-tone detection
// over a recording, run on worker threads (offload/pool.ts) so that no input, however large or hostile, keeps
// the service from answering other requests. Every function takes plain data and answers what the inline
// function would; an error thrown in the worker comes back as the same typed error (a refusal stays a 4xx).
//
// Small inputs run inline: the hop to a worker (copying the data both ways) costs more than their redaction,
// and a small input cannot hold the loop long (detection and record rules are linear in the input's size).
import type { AudioSpan, RedactionPcm } from '../../audio/redactAudio.js';
import { ServiceError } from '../../errors.js';
import type { EventRecord } from '../../schema/resources/eventRecord.js';
import type { Transcript } from '../../transcript/types.js';
import type { RecordRedaction } from '../redactRecord.js';
import type { TextRedaction } from '../redactText.js';
import type { RedactionResult } from '../redactTranscript.js';
import type { RedactionRule } from '../rules.js';
import type { CueWindowsConfig } from '../../schema/resources/projectConfig.js';
import type { SensitiveWindow } from '../windows/types.js';
import type { WindowLevel } from '../windows/windowLevel.js';
import { receiveError, type TaskReply } from './errors.js';
import { redactionPool } from './pool.js';
import { type EnrichTask, perform, type PostCallTask, type Processed, type RedactionTask, type RuleSource, type TaskResult } from './tasks.js';

export { closeRedactionPool } from './pool.js';

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
    reply = await redactionPool().run(task, transferList ? { transferList } : {});
  } catch (error) {
    // The worker itself died. Running out of memory is the input's size: refused as such, not a 500.
    if ((error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY') {
      throw new ServiceError('too_large', 'The input is too large to redact.');
    }
    throw error;
  } finally {
    inFlight--;
  }
  if (!reply.ok) throw receiveError(reply.error);
  return reply.result;
}

async function run<T extends RedactionTask>(task: T, size: unknown): Promise<TaskResult<T>> {
  return largerThan(size, INLINE_MAX_CHARS) ? offLoop(task) : await perform(task);
}

/**
 * redactRecord over `record` with the project/request `rules` and the record's own rules, which the worker
 * rebuilds with recordRules(ruleSource) (the record itself unless a carrying record is named).
 */
export function redactRecordOffLoop(record: EventRecord, rules: readonly RedactionRule[], hashKey: string, ruleSource?: RuleSource): Promise<RecordRedaction> {
  return run({ kind: 'record', record, rules, hashKey, ...(ruleSource && { ruleSource }) }, [record, ruleSource]);
}

/** redactText over `text`, with the rules of `ruleSource` (a record's redactionTypes/contentGroups) when given. */
export function redactTextOffLoop(text: string, rules: readonly RedactionRule[], hashKey: string, ruleSource?: RuleSource): Promise<TextRedaction> {
  return run({ kind: 'text', text, rules, hashKey, ...(ruleSource && { ruleSource }) }, [text, ruleSource]);
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
  return run({ kind: 'enrich', record, ...options }, record);
}

/**
 * A post-call record's redaction (when `redact` is given) and processing as one task, off the loop when the
 * record is large: one hop to a worker, the record copied there and back once.
 */
export function postCallOffLoop(record: EventRecord, redact: PostCallTask['redact'], process: PostCallTask['process']): Promise<Processed> {
  return run({ kind: 'postCall', record, ...(redact && { redact }), process }, record);
}

/** Cue and number windows of a job's recognized call (findSensitiveWindows), off the loop when the call is long. */
export function sensitiveWindowsOffLoop(transcript: Transcript, kinds: readonly string[], project?: CueWindowsConfig, level?: WindowLevel): Promise<SensitiveWindow[]> {
  return run({ kind: 'windows', transcript, kinds: [...kinds], ...(project && { project }), ...(level && { level }) }, transcript);
}

/** Keypad entries (jobRedaction's keypadEntries) of a decoded recording; always off the loop (a whole recording). */
export function keypadEntriesOffLoop(pcm: Pick<RedactionPcm, 'samples' | 'sampleRate' | 'channels'>): Promise<AudioSpan[]> {
  // A copy of the samples is handed over (transferred, not cloned again): the caller keeps its own for editing.
  const samples = pcm.samples.slice();
  return offLoop({ kind: 'keypad', pcm: { samples, sampleRate: pcm.sampleRate, channels: pcm.channels } }, [samples.buffer]);
}
