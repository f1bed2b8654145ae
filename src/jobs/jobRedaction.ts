// Which redaction a job gets: the project (sid) configuration's rules when it scrubs text, plus the kinds
// the request names in `types`; `scrubtext: true` on the request applies the project's rules, `false`
// turns text redaction off for the job. Nothing asked: no redaction.
import type { ProjectConfigs } from '../cache/projectConfigs.js';
import { Masker } from '../redact/masks.js';
import { detectWords } from '../redact/detect.js';
import { redactTranscript } from '../redact/redactTranscript.js';
import { resolveRules } from '../redact/rules.js';
import type { JobRow } from '../store/tables.js';
import type { Transcript } from '../transcript/types.js';
import type { TranscribeParams } from './request.js';

export function jobRedactor(projects: ProjectConfigs, hashKey: string) {
  return async (job: JobRow, params: TranscribeParams, transcript: Transcript) => {
    const project = params.sid ? (await projects.current(params.sid))?.config : undefined;
    const scrubtext = params.scrubtext ?? project?.scrubtext ?? false;
    if (scrubtext === false && !(params.types?.length)) return undefined;
    const rules = resolveRules({ project: scrubtext ? project : undefined, types: params.types });
    const result = redactTranscript(transcript, rules, (words) => detectWords(words), new Masker(hashKey));
    return {
      transcript: result.transcript,
      record: { rules: rules.map((r) => ({ kind: r.kind, maskType: r.maskType })), spans: result.spans },
    };
  };
}
