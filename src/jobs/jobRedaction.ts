// Which redaction a job gets: the project (sid) configuration's rules when it scrubs text or audio, plus the
// kinds the request names in `types`; `scrubtext`/`scrubaudio` on the request override the project's.
// Nothing asked: no redaction.
import path from 'node:path';
import { redactAudio } from '../audio/redactAudio.js';
import type { ProjectConfigs } from '../cache/projectConfigs.js';
import { Masker } from '../redact/masks.js';
import { detectWords } from '../redact/detect.js';
import { redactTranscript } from '../redact/redactTranscript.js';
import { resolveRules } from '../redact/rules.js';
import type { JobRow } from '../store/tables.js';
import type { Transcript } from '../transcript/types.js';
import type { TranscribeParams } from './request.js';

export interface RedactorOptions {
  projects: ProjectConfigs;
  hashKey: string;
  dataDir: string;
  /** Engine parameters in force for a project (scrubmindist). */
  engineParams: (sid?: string) => Promise<Record<string, unknown>>;
}

/**
 * `scrubaudio` also redacts the recording: each text span's time, on the channel that spoke it, becomes a
 * tone in a copy kept beside the original. It implies text redaction of the same kinds: a transcript must
 * never show what the audio hides.
 */
export function jobRedactor(options: RedactorOptions) {
  return async (job: JobRow, params: TranscribeParams, transcript: Transcript) => {
    const project = params.sid ? (await options.projects.current(params.sid))?.config : undefined;
    const scrubaudio = params.scrubaudio ?? project?.scrubaudio ?? false;
    const scrubtext = params.scrubtext ?? project?.scrubtext ?? scrubaudio;
    if (scrubtext === false && scrubaudio === false && !(params.types?.length)) return undefined;
    const rules = resolveRules({ project: scrubtext || scrubaudio ? project : undefined, types: params.types });
    const result = redactTranscript(transcript, rules, (words) => detectWords(words), new Masker(options.hashKey));
    const record: Record<string, unknown> = { rules: rules.map((r) => ({ kind: r.kind, maskType: r.maskType })), spans: result.spans };
    if (scrubaudio && job.audio_path) {
      const engine = await options.engineParams(params.sid);
      const relative = path.join(path.dirname(job.audio_path), `redacted${path.extname(job.audio_path) || '.wav'}`);
      const merged = await redactAudio(path.join(options.dataDir, job.audio_path), path.join(options.dataDir, relative), result.spans, {
        minDistance: Number(params.scrubmindist ?? engine.scrubmindist ?? 0.3),
        padding: 0.05,
        mode: 'tone',
      });
      record.audio = { path: relative, spans: merged.flat().sort((a, b) => a.start - b.start) };
    }
    return { transcript: result.transcript, record };
  };
}
