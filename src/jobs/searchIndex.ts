// What a job puts in the search index (issue 35): its stored transcript's words, and only once redaction of
// them completed — the worker calls this in the transaction that stores the redacted result, never before.
import type { Repositories } from '../store/index.js';
import type { JobRow } from '../store/tables.js';
import type { Transcript } from '../transcript/types.js';

/** The transcript's words as one text, channel after channel. */
export function transcriptText(transcript: Transcript): string {
  return transcript.channels.map((c) => c.words.map((w) => w.word).join(' ')).filter((text) => text.length > 0).join('\n');
}

/** Index a job's redacted transcript (replacing an earlier run's entry). */
export async function indexRedactedJob(tx: Repositories, job: JobRow, redacted: Transcript): Promise<void> {
  // The agent and campaign the job was submitted with (issue 35), so search filters jobs by them too.
  const params = JSON.parse(job.params) as { agent?: unknown; campaign?: unknown };
  const id = (v: unknown) => (typeof v === 'string' && v.length > 0 ? v : null);
  await tx.search.put({ kind: 'job', id: job.id, sid: job.sid ?? null, agentId: id(params.agent), campaign: id(params.campaign), createdAt: job.created_at, body: transcriptText(redacted) });
}
