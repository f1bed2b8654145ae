// The redaction worker thread's entry (run by piscina): performs one task and answers its result, or the error
// it threw as data (workers/errors.ts), so the caller gets back the same typed error.
import { sendError, type TaskReply } from './errors.js';
import { perform, type RedactionTask, type TaskResults } from './tasks.js';

export default async function run(task: RedactionTask): Promise<TaskReply<TaskResults[keyof TaskResults]>> {
  try {
    // The task is this thread's own copy (structured clone): its record may be redacted in place.
    return { ok: true, result: await perform(task, true) };
  } catch (error) {
    return { ok: false, error: sendError(error) };
  }
}
