// What a completed job that asked for analysis keeps for categories over time (issue 35): its analysis' insight
// results (ids, types, line counts; never text), with the job's project and the `agent` / `campaign` it was
// submitted with, and its figures (sentiment, talk time: cache/callFigureRow.ts). Its analysis is otherwise computed when the job is read; this is the one stored trace of it.
import { callFigureRow } from '../cache/callFigureRow.js';
import { hitsOfAnalytics } from '../cache/recordInsightHits.js';
import type { EventRecord } from '../schema/resources/eventRecord.js';
import type { Store } from '../store/index.js';
import type { JobRow } from '../store/tables.js';
import type { Transcript } from '../transcript/types.js';

export async function keepJobInsightHits(store: Store, row: JobRow, analysisOf: (transcript: Transcript) => Promise<Pick<EventRecord, 'analytics' | 'conversation'>>): Promise<void> {
  const transcript = (await store.jobs.result(row.id)) as Transcript | undefined;
  if (!transcript) return;
  const params = JSON.parse(row.params) as { agent?: unknown; campaign?: unknown };
  const text = (v: unknown) => (typeof v === 'string' && v.length > 0 ? v : null);
  const analysis = await analysisOf(transcript);
  const call = { kind: 'job' as const, id: row.id, sid: row.sid ?? null, agentId: text(params.agent), campaign: text(params.campaign), createdAt: row.created_at };
  // Its insight results and its figures (sentiment, talk time) land together.
  await store.transaction(async (tx) => {
    await tx.insightHits.replace(call, hitsOfAnalytics(analysis.analytics));
    await tx.callFigures.put(callFigureRow(call, analysis.analytics, analysis.conversation));
  });
}
