// Conversation intelligence for audio and text jobs (issue 18). A job asks for it with `analytics: true` or
// `insights: [ids]` (insights of its project's published configuration, `sid`). At submit the ids are checked
// (each must name an active project insight; one whose flags ask for redaction is refused: a job's stored
// transcript and audio are not edited by insights, and an insight redaction that cannot be done is a 400,
// never a silent pass). When the job completes, `insightsProcessed` is set; its record then carries the same
// analysis a post-call record carrying the job's vendorA transcript gets, computed from that same shape.
import { invalid } from '../errors.js';
import type { TranscribeParams } from '../jobs/request.js';
import type { EventRecord } from '../schema/resources/eventRecord.js';
import type { Insight } from '../schema/resources/insight.js';
import type { ProcessJob } from '../schema/resources/processJob.js';
import type { ProjectConfig } from '../schema/resources/projectConfig.js';
import { enrichRecordOffLoop } from '../redact/offload/index.js';
import { compileInsights } from './insights/definitions.js';
import { recordRoleOptions } from './normalize.js';
import { switchesOf } from './switches.js';

type Params = Pick<TranscribeParams, 'insights' | 'agent_location' | 'direction' | 'sid'> & { analytics?: boolean };

export function analysisAsked(params: Params): boolean {
  return params.analytics === true || (params.insights?.length ?? 0) > 0;
}

const redacts = (i: Insight) =>
  !!(i.redactLine || i.redactText || i.redactAudio || i.redactLineResponse || i.redactTextResponse || i.redactAudioResponse || (i.redactBefore ?? 0) > 0 || (i.redactAfter ?? 0) > 0 || (i.redactBeforeResponse ?? 0) > 0 || (i.redactAfterResponse ?? 0) > 0);

/** The project insights a job names (all active ones for `*` or `all`). */
function named(params: Params, project: ProjectConfig | undefined): Insight[] {
  const ids = params.insights ?? [];
  const all = (project?.insights ?? []).filter((i) => i.active !== false);
  if (ids.some((id) => id === '*' || id.toLowerCase() === 'all')) return all;
  return all.filter((i) => i.id !== undefined && ids.includes(i.id));
}

/** Refuse (400) a job whose insights cannot run as asked: no project, an unknown id, or a redacting insight. */
export function checkJobInsights(params: Params, project: ProjectConfig | undefined): void {
  const ids = params.insights ?? [];
  if (ids.length === 0) return;
  if (!project) throw invalid('insights name insights of a project: give the sid of a published project configuration.', [{ pointer: '/sid', path: 'sid', message: 'required with insights' }]);
  const known = new Set((project.insights ?? []).filter((i) => i.active !== false).map((i) => i.id));
  const issues = ids.flatMap((id, k) =>
    id === '*' || id.toLowerCase() === 'all' || known.has(id) ? [] : [{ pointer: `/insights/${k}`, path: `insights[${k}]`, message: `no active insight "${id}" in project ${project.sid}` }],
  );
  if (issues.length > 0) throw invalid(`insights: ${issues.map((i) => i.message).join('; ')}.`, issues);
  const redacting = named(params, project).filter(redacts);
  if (redacting.length > 0) {
    throw invalid(
      `insight ${redacting.map((i) => `"${i.id}"`).join(', ')} asks for redaction (redactLine/Text/Audio/Before/After), which insights do not apply to a job's transcript and audio; redact with types/sid, or post the transcript to post-call.`,
      [{ pointer: '/insights', path: 'insights', message: 'an insight that redacts cannot run on a job' }],
    );
  }
}

export type JobAnalysis = Pick<ProcessJob, 'analytics' | 'conversation' | 'utterances' | 'insightLines' | 'keyPhrases' | 'entities' | 'insightsCreated' | 'segmentsCreated'>;

/**
 * The analysis of a completed job from its vendorA transcript (the record a post-call of that transcript would
 * be). Insights that redact (published after the job was submitted) are left out: they are listed as not run.
 */
export async function analyseJob(vendorATranscript: ProcessJob['vendorATranscript'], params: Params, project: ProjectConfig | undefined): Promise<JobAnalysis> {
  const chosen = named(params, project);
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
  });
  const notRun = chosen.filter(redacts).map((i) => ({ id: i.id, name: i.name, type: 'not_run', value: null }));
  return {
    analytics: { ...r.analytics, ...(notRun.length > 0 && { insights: [...(r.analytics?.insights ?? []), ...notRun] }) },
    conversation: r.conversation,
    utterances: r.utterances,
    insightLines: r.insightLines,
    keyPhrases: r.keyPhrases,
    entities: r.entities,
    insightsCreated: r.insightsCreated,
    segmentsCreated: r.segmentsCreated,
  };
}
