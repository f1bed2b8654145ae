// Text redaction for `scrubline transcribe`, as a job without a project does it: the kinds asked (`--types`, or
// every kind with `--scrubtext`) detected and masked by the one redaction core (redactTranscriptOffLoop, off the
// event loop), so the files written hold the redacted words only. Audio redaction needs the job pipeline (a
// checked copy beside the original): asked here, it is refused, never silently skipped.
import crypto from 'node:crypto';
import { parseKinds, policyRules, resolvePolicy, redacts } from '../redact/policy.js';
import { redactTranscriptOffLoop, sensitiveWindowsOffLoop } from '../workers/index.js';
import { applyWindows, clipWindows } from '../redact/windows/apply.js';
import type { Transcript } from '../transcript/types.js';

export interface CliRedaction {
  scrubtext?: boolean;
  /** Comma list of entity kinds (`all` for every kind). */
  types?: string;
  scrubaudio?: boolean;
}

export class CliRedactionError extends Error {}

/** The rules asked for, or undefined when no redaction was asked; throws CliRedactionError on a bad ask. */
export function cliRules(ask: CliRedaction) {
  if (ask.scrubaudio) {
    throw new CliRedactionError('--scrubaudio is not available in `scrubline transcribe` (redacted audio is made by the server: POST /asr/transcribe with scrubaudio); use --scrubtext or --types for the transcripts.');
  }
  let kinds;
  try {
    kinds = parseKinds(ask.types?.split(',').map((t) => t.trim()).filter(Boolean));
  } catch (error) {
    throw new CliRedactionError(`--types: ${(error as Error).message}`);
  }
  const policy = resolvePolicy({ ask: { kinds, scrubtext: ask.scrubtext || kinds.length > 0 }, project: undefined });
  return redacts(policy) ? policyRules(policy) : undefined;
}

/**
 * The transcript with the asked kinds masked. Hash masks use SCRUBLINE_SECRET_KEY's derivation when set (the
 * same values as the server's), else a key of this run.
 */
export async function redactForCli(transcript: Transcript, rules: ReturnType<typeof cliRules>, hashKey = process.env.SCRUBLINE_SECRET_KEY || crypto.randomBytes(32).toString('hex')): Promise<Transcript> {
  if (!rules) return transcript;
  // The default windows as a job without a project gets them (redact/windows/windowLevel.ts): a card number heard
  // as "for 53 to 0151" is masked though no detector matched it.
  const windows = await sensitiveWindowsOffLoop(transcript, rules.map((r) => r.kind), undefined, 'default');
  const redacted = (await redactTranscriptOffLoop(transcript, rules, hashKey)).transcript;
  return applyWindows(redacted, clipWindows(windows, transcript.audioSeconds ?? Infinity), rules).transcript;
}
