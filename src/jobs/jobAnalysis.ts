// Conversation intelligence for audio and text jobs (issue 18). A job asks for it with `analytics: true` or
// `insights: [ids]` (insights of its project's published configuration, `sid`). At submit the ids are checked
// (each must name an active project insight). Insights whose flags ask for redaction run in the job's redaction
// step (conversation/insights/jobRedactions.ts: their words and, with redactAudio, their audio go); what they found is kept in
// the job's redaction record and reported here. When the job completes, `insightsProcessed` is set; its record
// then carries the same analysis a post-call record carrying the job's vendorA transcript gets, computed from
// that same shape.
import type { ChannelLoudness } from '../audio/loudness.js';
import { invalid } from '../errors.js';
import type { TranscribeParams } from './request.js';
import type { EventRecord } from '../schema/resources/eventRecord.js';
import type { Insight } from '../schema/resources/insight.js';
import type { ProcessJob } from '../schema/resources/processJob.js';
import type { ProjectConfig } from '../schema/resources/projectConfig.js';
import { enrichRecordOffLoop } from '../workers/index.js';
import { type JobInsightOutcome, redactsSomething } from '../conversation/insights/jobRedactions.js';
import { compileInsights } from '../conversation/insights/definitions.js';
import { recordRoleOptions } from '../conversation/normalize.js';
import { switchesOf } from '../conversation/switches.js';

type Params = Pick<TranscribeParams, 'insights' | 'agent_location' | 'direction' | 'sid'> & { analytics?: boolean };

export function analysisAsked(params: Params): boolean {
  return params.analytics === true || (params.insights?.length ?? 0) > 0;
}

const redacts = redactsSomething;

/** The project insights a job names (all active ones for `*` or `all`). */
export function namedInsights(params: Params, project: ProjectConfig | undefined): Insight[] {
  const ids = params.insights ?? [];
  const all = (project?.insights ?? []).filter((i) => i.active !== false);
  if (ids.some((id) => id === '*' || id.toLowerCase() === 'all')) return all;
  return all.filter((i) => i.id !== undefined && ids.includes(i.id));
}

/** Refuse (400) a job whose insights cannot run as asked: no project, or an unknown id. */
export function checkJobInsights(params: Params, project: ProjectConfig | undefined): void {
  const ids = params.insights ?? [];
  if (ids.length === 0) return;
  if (!project) throw invalid('insights name insights of a project: give the sid of a published project configuration.', [{ pointer: '/sid', path: 'sid', message: 'required with insights' }]);
  const known = new Set((project.insights ?? []).filter((i) => i.active !== false).map((i) => i.id));
  const issues = ids.flatMap((id, k) =>
    id === '*' || id.toLowerCase() === 'all' || known.has(id) ? [] : [{ pointer: `/insights/${k}`, path: `insights[${k}]`, message: `no active insight "${id}" in project ${project.sid}` }],
  );
  if (issues.length > 0) throw invalid(`insights: ${issues.map((i) => i.message).join('; ')}.`, issues);
}

export type JobAnalysis = Pick<ProcessJob, 'analytics' | 'conversation' | 'utterances' | 'insightLines' | 'keyPhrases' | 'entities' | 'insightsCreated' | 'segmentsCreated'>;

/**
 * The analysis of a completed job from its vendorA transcript (the record a post-call of that transcript would
 * be). Insights that redact (published after the job was submitted) are left out: they are listed as not run.
 */
export async function analyseJob(
  vendorATranscript: ProcessJob['vendorATranscript'],
  params: Params,
  project: ProjectConfig | undefined,
  found: readonly JobInsightOutcome[] = [],
  loudness?: readonly ChannelLoudness[],
): Promise<JobAnalysis> {
  const chosen = namedInsights(params, project);
  const runnable = chosen.filter((i) => !redacts(i));
  const record: EventRecord = {
    vendorATranscript,
    campaign: { ...(params.agent_location && { agentLocation: params.agent_location }), ...(params.direction && { direction: params.direction }) },
    insights: runnable,
  };
  // Off the event loop for a long call (no `redaction`: a job's analysis never masks).
  const r = await enrichRecordOffLoop(record, {
    insights: compileInsights(runnable, '/insights'),
    roles: recordRoleOptions(record, project?.agent_location),
    switches: switchesOf(undefined),
    direction: params.direction,
    products: project?.products,
    callOutcomes: project?.callOutcomes,
  });
  // Redacting insights ran in the job's redaction step, on the words as recognized (here their phrase is masked):
  // what they found there is reported; one with nothing recorded (a job from before, or whose redaction failed)
  // is listed as not run.
  const lineAt = (speaker: number, t: number) =>
    (r.utterances ?? []).findIndex((u) => u.speaker === speaker && (u.start ?? 0) - 1e-6 <= t && t <= (u.end ?? 0) + 1e-6);
  const fromRedaction = chosen.filter(redacts).map((i) => ({ insight: i, outcome: found.find((o) => o.id === i.id) }));
  const reported = fromRedaction.map(({ insight: i, outcome: o }) => {
    if (!o) return { id: i.id, name: i.name, type: 'not_run', value: null };
    const first = o.lines[0];
    return {
      id: o.id,
      ...(i.name && { name: i.name }),
      type: o.violation ? 'compliance_violation' : o.matched ? 'match' : 'no_match',
      value: o.lines.length,
      ...(first && { speaker: String(first.speaker), timestamp: first.start }),
      ...(o.alert && { alert: true, ...(i.alertMessage && { alertMessage: i.alertMessage }) }),
      ...(i.complianceViolation && { complianceViolation: o.violation }),
    };
  });
  const redactedLines = fromRedaction.flatMap(({ outcome: o }) =>
    (o?.lines ?? []).map((l) => {
      const line = lineAt(l.speaker, l.start);
      const response = l.response ? lineAt(l.response.speaker, l.response.start) : -1;
      return {
        insightId: o!.id,
        timestamp: l.start,
        speaker: l.speaker,
        line: Math.max(0, line),
        value: r.utterances?.[line]?.text ?? '',
        hasResponse: l.response !== undefined,
        ...(l.response && response >= 0 && { responseLine: response, responseValue: r.utterances?.[response]?.text ?? '' }),
        isRedaction: true,
      };
    }),
  );
  return {
    analytics: {
      ...r.analytics,
      ...(reported.length > 0 && { insights: [...(r.analytics?.insights ?? []), ...reported] }),
      ...(loudness && { loudness: partyLoudness(loudness, r.utterances ?? [], (params.agent_location ?? project?.agent_location) === 'right' ? 1 : 0) }),
    },
    conversation: r.conversation,
    utterances: r.utterances,
    insightLines: [...(r.insightLines ?? []), ...redactedLines],
    keyPhrases: r.keyPhrases,
    entities: r.entities,
    insightsCreated: (r.insightsCreated ?? 0) + redactedLines.length,
    segmentsCreated: r.segmentsCreated,
  };
}

/**
 * Loudness per channel as analytics.loudness: each channel with its party — on a stereo call the role its
 * channel has (the agent's channel is `agentChannel`, as for the figures), whether or not anything was
 * recognized on it; `speaker` where its utterances name one.
 */
export function partyLoudness(loudness: readonly ChannelLoudness[], utterances: NonNullable<JobAnalysis['utterances']>, agentChannel: number) {
  return loudness.map((l) => {
    const speaker = utterances.find((u) => u.channel === l.channel)?.speaker;
    const role = loudness.length === 2 ? (l.channel === agentChannel ? 'agent' : 'caller') : undefined;
    return {
      channel: l.channel,
      ...(speaker !== undefined && { speaker }),
      ...(role && { role }),
      bucket_seconds: l.bucketSeconds,
      dbfs: l.dbfs,
      average_dbfs: l.averageDbfs,
      peak_dbfs: l.peakDbfs,
    };
  });
}
