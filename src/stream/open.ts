// Opening a live stream, whatever its transport: the start message checked, the redaction policy resolved with
// the one resolver (redact/policy.ts, real-time: the project's real_time rules plus the kinds asked), the
// engine parameters of the project, the model chosen, the project's real-time insights, and the after-call job
// wired to the job path.
import path from 'node:path';
import { invalid, ServiceError } from '../errors.js';
import { AUTO_MODEL, TELEPHONY_MODEL, WIDEBAND_MODEL, installedModels, isAutoModel } from '../engine/models.js';
import { checkJobInsights } from '../jobs/jobAnalysis.js';
import { engineFor } from '../engine/recognize.js';
import type { TranscribeParams } from '../jobs/request.js';
import { uploadTempDir } from '../jobs/orphanUploads.js';
import { stagingDir } from '../jobs/stagingDir.js';
import { Masker } from '../redact/masks.js';
import { parseKinds, policyRules, resolvePolicy } from '../redact/policy.js';
import { StreamStart } from '../schema/resources/streamMessages.js';
import { check } from '../schema/validator.js';
import type { Services } from '../services.js';
import type { ApiKeyInfo } from '../store/apiKeys.js';
import { streamInsights } from './insights.js';
import { type OutgoingMessage, StreamSession } from './session.js';
import { TranscriptKeeper } from './transcriptKeeper.js';

/** The start message, checked against its schema (a 400-style refusal naming the fields). */
export function parseStart(value: unknown): StreamStart {
  const issues = check(StreamStart, value);
  if (issues.length > 0) {
    const first = issues[0];
    throw invalid(`The start message is invalid: ${first.path || '(root)'} ${first.message}${issues.length > 1 ? ` (and ${issues.length - 1} more)` : ''}.`, issues);
  }
  return value as StreamStart;
}

/** The model a stream uses: the one asked (installed, and its engine streams), or by the audio's rate. */
export function streamModel(asked: string | undefined, fallback: string, sampleRate: number): string {
  const installed = installedModels().map((m) => m.name);
  let model = asked ?? fallback;
  if (isAutoModel(model) || model === AUTO_MODEL) model = sampleRate <= 8000 && installed.includes(TELEPHONY_MODEL) ? TELEPHONY_MODEL : WIDEBAND_MODEL;
  if (!installed.includes(model)) {
    throw invalid(`Model "${model}" is not installed. Installed: ${installed.join(', ') || 'none'}.`, [{ pointer: '/model', path: 'model', message: 'must be an installed model' }]);
  }
  return model;
}

export interface OpenedStream {
  session: StreamSession;
  kinds: string[];
  idleSeconds: number;
}

export async function openStream(
  services: Services,
  start: StreamStart,
  caller: ApiKeyInfo | undefined,
  send: (message: OutgoingMessage) => void,
  id: string,
  onError?: (error: Error) => void,
): Promise<OpenedStream> {
  const kinds = parseKinds(start.types, 'types');
  // The after-call job's notification target is refused now, not after the call when its recording would be lost.
  if (start.webhook) services.jobs.checkNotificationTarget({ webhook: start.webhook });
  const project = start.sid !== undefined ? await services.projects.forRedaction(start.sid, 'sid') : undefined;
  const policy = resolvePolicy({ ask: { kinds }, project, realTime: true, mayLower: caller?.scope === 'admin' });
  const rules = policyRules(policy, project?.config);
  // The after-call job's insights too: a job that would be refused after the call would lose its recording.
  checkJobInsights({ insights: start.insights, sid: start.sid }, project?.config);
  const params = await services.parameters.engineParams(start.sid);
  const model = streamModel(start.model, String(params.model ?? AUTO_MODEL), start.sampleRate);
  const engine = engineFor(model);
  const why = engine.stream ? engine.whyNotStreaming?.(model) : `Model ${model} (${engine.name}) does not stream; use a PocketSphinx or a sherpa-onnx model.`;
  if (why) throw new ServiceError('unprocessable', why, [{ pointer: '/model', path: 'model', message: 'must be a model that streams' }]);
  const idleSeconds = Number(params.idletimeout) > 0 ? Number(params.idletimeout) : 60;
  const session = new StreamSession({
    id,
    start,
    engine,
    model,
    params,
    rules,
    masker: new Masker(services.redactionHashKey),
    kinds: policy.kinds,
    tempDir: uploadTempDir(services.config.dataDir),
    spillDir: stagingDir(services.config.dataDir),
    send,
    ...(onError && { onError }),
    timing: services.metrics.streamTiming(),
    // The project's realTime insights on each final (the same evaluation as POST /cache/real-call).
    insights: streamInsights(project?.config),
    // The finals as sent (redacted) are kept under the stream's id: GET /asr/stream/{streamId}/messages.
    transcript: new TranscriptKeeper(services.store.streamMessages, id, start.job === false ? policy.retentionDays : undefined, start.callSid),
    makeJob: async (wav, s) => {
      // The after-call job redacts at least what the stream did: its kinds asked, plus the project's own rules.
      const marks = s.sensitiveWindows();
      const jobParams: TranscribeParams = {
        ...(start.sid !== undefined && { sid: start.sid }),
        // With the stream's kinds, its cue windows too: the live number cues (numberCues.ts) have a counterpart in
        // the job, so a number recognition broke into pieces is not left in the job's text after being masked live.
        ...(policy.kinds.length > 0 && { types: [...policy.kinds], scrubtext: true, cueWindows: true }),
        ...(start.scrubaudio && { scrubaudio: true }),
        ...(start.scrubsound && { scrubsound: start.scrubsound }),
        // The windows the client marked (pause/resume): their audio and words go whatever the job recognizes.
        ...(marks.length > 0 && { sensitiveWindows: marks }),
        ...(start.channels === 2 && { agent_location: (start.agentChannel ?? 0) === 0 ? 'left' : 'right' }),
        tracking_id: s.id,
        ...(start.callSid && { callSid: start.callSid }),
        ...(start.model && !isAutoModel(start.model) && { model: start.model }),
        ...(start.webhook && { webhook: start.webhook }),
        ...(start.analytics !== undefined && { analytics: start.analytics }),
        ...(start.insights && { insights: start.insights }),
      };
      const job = await services.jobs.submitAudio(wav, path.basename(wav), jobParams, { scope: caller?.scope, keyId: caller?.id });
      return job.id;
    },
  });
  return { session, kinds: policy.kinds, idleSeconds };
}
