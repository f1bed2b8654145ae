// What becomes of a recording once audio redaction wrote its redacted copy: the copy is checked (it decodes,
// with the channels and duration of the recording it was made from), then the original is deleted unless
// the request or the project keeps it (`keepOriginal`). A kept original is served to admin keys only.
import { probeAudio, runTool, ffmpegProgram } from '../audio/probe.js';
import type { RedactionPcm } from '../audio/redactAudio.js';
import type { ProjectConfigs } from '../cache/projectConfigs.js';
import type { TranscribeParams } from './request.js';

/** How far (s) the copy's duration may differ from the recording's: encoder padding of compressed formats. */
const DURATION_SLACK_SECONDS = 0.15;
const DURATION_SLACK_RATIO = 0.01;

/** The redaction record's view of the redacted copy (job_results.redaction.audio). */
export interface RedactedAudioRecord {
  /** Relative to the data directory. */
  path: string;
  /** Whether the original was to be kept beside the copy. */
  keepOriginal?: boolean;
}

/**
 * Throws unless the redacted copy at `file` decodes whole and has the channels and duration of `pcm` (the
 * recording it was made from): the original is never deleted for a copy that cannot stand in for it.
 */
export async function checkRedactedCopy(file: string, pcm: RedactionPcm): Promise<void> {
  const probe = await probeAudio(file);
  const expected = pcm.frames / pcm.sampleRate;
  if (probe.channels !== pcm.channels) {
    throw new Error(`the redacted copy has ${probe.channels} channels, the recording ${pcm.channels}; the original is kept and the job fails`);
  }
  if (Math.abs(probe.durationSeconds - expected) > DURATION_SLACK_SECONDS + expected * DURATION_SLACK_RATIO) {
    throw new Error(`the redacted copy lasts ${probe.durationSeconds.toFixed(2)} s, the recording ${expected.toFixed(2)} s; the original is kept and the job fails`);
  }
  const decoded = await runTool(ffmpegProgram(), ['-v', 'error', '-xerror', '-i', file, '-f', 'null', '-'], { timeoutMs: 600_000 });
  if (decoded.code !== 0) throw new Error(`the redacted copy does not decode (${decoded.stderr.trim().slice(0, 200)}); the original is kept and the job fails`);
}

/** Whether the original recording is kept beside its redacted copy: the request or the project asks it. */
export async function keepsOriginal(params: TranscribeParams, projects: ProjectConfigs): Promise<boolean> {
  if (params.keepOriginal === true) return true;
  if (!params.sid) return false;
  return (await projects.current(params.sid))?.config.keepOriginal === true;
}
