// The one rule for a job's originals (the recording as uploaded, the words as recognized). While a job owes
// redaction (it asked for any, its project requires it, it marked windows or runs redacting insights) only its
// redacted artifact leaves the service to a non-admin reader, and only once that artifact exists (the job
// completed and its redaction completed). Until then a non-admin reader gets 409 (queued, running: the
// redaction is pending) or 403 (failed, cancelled, or completed without a redacted artifact of what is asked:
// only an admin key may read it). An admin key may read an original; each such read is a job event naming the
// key (id and name, never the secret). Every path asks here: the audio and transcript routes, the job record's
// transcript shapes, notification contents and bucket exports (those two are non-admin destinations).
import type { ProjectConfigs } from '../cache/projectConfigs.js';
import { redactsSomething } from '../conversation/insights/jobRedactions.js';
import { namedInsights } from './jobAnalysis.js';
import { ServiceError } from '../errors.js';
import { jobPolicy, redacts } from '../redact/policy.js';
import { type ApiKeyInfo, scopeAllows } from '../store/apiKeys.js';
import type { Store } from '../store/index.js';
import type { JobRow } from '../store/tables.js';
import type { RedactedAudioRecord } from './originalAudio.js';
import type { TranscribeParams } from './request.js';

export type JobArtifact = 'audio' | 'transcript';

/** What the rule looks at. */
export interface RedactionState {
  status: string;
  redactionStatus: string;
  /** The job asked for redaction or its project requires it: its originals are for admin keys only. */
  owes: boolean;
  /** The redacted artifact exists: the checked redacted copy of the recording; the redacted transcript. */
  redacted: boolean;
}

/** `stored`: the job owes no redaction, what is stored is served; `redacted`: its redacted artifact; else refused. */
export type Verdict = { give: 'stored' | 'redacted' } | { refuse: ServiceError };

/** The rule itself (pure): what of a job's artifact a non-admin reader may be given. */
export function originalsVerdict(state: RedactionState, artifact: JobArtifact, jobId: string): Verdict {
  if (!state.owes) return { give: 'stored' };
  if (state.status === 'completed' && state.redactionStatus === 'completed' && state.redacted) return { give: 'redacted' };
  const what = artifact === 'audio' ? 'recording' : 'transcript';
  if (state.status === 'queued' || state.status === 'processing') {
    return {
      refuse: new ServiceError(
        'conflict',
        `Job ${jobId} is ${state.status} and its redaction is not complete: its ${what} is served once the redaction completed (admin keys may read the original, on the record).`,
        [],
        { reason: 'redaction_pending', retryable: true },
      ),
    };
  }
  let why: string;
  if (state.status === 'failed') why = `its redaction ${state.redactionStatus === 'failed' ? 'failed' : 'did not complete'}`;
  else if (state.status === 'cancelled') why = 'it was cancelled before its redaction completed';
  else if (state.redactionStatus === 'completed') why = 'its recording was not redacted (audio redaction, scrubaudio, was not asked: only its transcript was)';
  else why = 'its content was not redacted as its project now requires (resubmit it)';
  return {
    refuse: new ServiceError('forbidden', `Job ${jobId} owes redaction and ${why}: its original ${what} is served to admin-scope keys only.`, [], {
      reason: 'redaction_not_done',
    }),
  };
}

/**
 * The verdict for what leaves to a client without a key (a notification, a bucket export) once the job ends as
 * `status`: the row's redaction status is then what its run did (the run resolved what the project requires).
 */
export function deliveryVerdict(row: Pick<JobRow, 'id' | 'redaction_status'>, status: string, redactionRan: boolean, artifact: JobArtifact, redactedAudio = false): Verdict {
  return originalsVerdict(
    {
      status,
      redactionStatus: redactionRan ? 'completed' : row.redaction_status,
      owes: redactionRan || row.redaction_status !== 'not_requested',
      redacted: redactionRan && (artifact === 'transcript' || redactedAudio),
    },
    artifact,
    row.id,
  );
}

/** Who reads: no key means none exists and the caller is on this machine, which the API serves in full (api/auth.ts). */
export interface Reader {
  admin: boolean;
  key?: ApiKeyInfo;
}

export function readerOf(key: ApiKeyInfo | undefined): Reader {
  return { admin: !key || scopeAllows(key.scope, 'admin'), key };
}

export class OriginalsGuard {
  constructor(private readonly options: { store: Store; projects: ProjectConfigs }) {}

  /**
   * Whether a job owes redaction: asked at submit (redactionStatus), marked windows, or what its run would
   * redact now (the project's requirement, redacting insights). Anything unreadable counts as owing.
   */
  async owes(row: JobRow): Promise<boolean> {
    if (row.redaction_status !== 'not_requested') return true;
    try {
      const params = JSON.parse(row.params) as TranscribeParams;
      if ((params.sensitiveWindows?.length ?? 0) > 0) return true;
      const project = params.sid ? await this.options.projects.current(params.sid) : undefined;
      if (redacts(jobPolicy(params, project))) return true;
      return namedInsights(params, project?.config).some(redactsSomething);
    } catch {
      return true;
    }
  }

  /** The job's redacted copy of its recording (redaction record), when audio redaction ran. */
  async redactedCopy(row: JobRow): Promise<string | undefined> {
    return ((await this.options.store.jobs.redaction(row.id)) as { audio?: RedactedAudioRecord } | undefined)?.audio?.path;
  }

  async verdict(row: JobRow, artifact: JobArtifact): Promise<Verdict> {
    const owes = await this.owes(row);
    const redacted = artifact === 'audio' ? (await this.redactedCopy(row)) !== undefined : row.redaction_status === 'completed';
    return originalsVerdict({ status: row.status, redactionStatus: row.redaction_status, owes, redacted }, artifact, row.id);
  }

  /**
   * The blob key of the recording to serve for GET /asr/jobs/{id}/audio (`redacted`: the query's), or a refusal.
   * An admin key reading an original of a job that owes redaction is recorded.
   */
  async audio(row: JobRow, reader: Reader, redacted: boolean | undefined): Promise<string | undefined> {
    const copy = await this.redactedCopy(row);
    // The job's recording is the original until audio redaction replaced it with the copy.
    const original = row.audio_path && row.audio_path !== copy ? row.audio_path : undefined;
    const owes = await this.owes(row);
    const verdict = originalsVerdict({ status: row.status, redactionStatus: row.redaction_status, owes, redacted: copy !== undefined }, 'audio', row.id);
    if ('refuse' in verdict) {
      if (!reader.admin) throw verdict.refuse;
      if (redacted === true) throw new ServiceError('conflict', `Job ${row.id} has no redacted audio yet: ${verdict.refuse.message}`);
      // An admin reads what the job holds: the original (a resubmitted job may hold an earlier run's copy).
      if (row.audio_path) await this.recordRead(row, reader, 'audio');
      return row.audio_path ?? undefined;
    }
    if (redacted === true) {
      if (!copy) throw new ServiceError('conflict', `Job ${row.id} has no redacted audio: audio redaction (scrubaudio) has not run for it.`);
      return copy;
    }
    if (redacted === false && copy) {
      // The unredacted original beside its redacted copy (keepOriginal): admin keys only, each read on the record.
      if (!reader.admin) {
        throw new ServiceError('forbidden', `Job ${row.id}'s audio was redacted; its original is served to admin-scope keys only (the key has "${reader.key?.scope}").`, [], {
          reason: 'original',
        });
      }
      if (!original) throw new ServiceError('not_found', `Job ${row.id}'s original recording was deleted after audio redaction (keepOriginal was not set).`);
      await this.recordRead(row, reader, 'audio');
      return original;
    }
    return copy ?? row.audio_path ?? undefined;
  }

  /**
   * Whether the job's stored transcript may be given to `reader` (the transcript route, the job record's shapes):
   * throws the refusal when `refuse`, else answers false. An admin reading an unredacted transcript of a job that
   * owes redaction is recorded.
   */
  async transcript(row: JobRow, reader: Reader, refuse: boolean): Promise<boolean> {
    const verdict = await this.verdict(row, 'transcript');
    if (!('refuse' in verdict)) return true;
    if (!reader.admin) {
      if (refuse) throw verdict.refuse;
      return false;
    }
    // Only a completed job has a transcript to read.
    if (row.status === 'completed') await this.recordRead(row, reader, 'transcript');
    return true;
  }

  private async recordRead(row: JobRow, reader: Reader, artifact: JobArtifact): Promise<void> {
    await this.options.store.events.record({
      type: 'job',
      subType: artifact === 'audio' ? 'original_audio_read' : 'original_transcript_read',
      subject: row.id,
      jobId: row.id,
      status: row.status,
      message: artifact === 'audio' ? 'the unredacted original recording was read' : 'the unredacted transcript was read',
      details: { artifact, keyId: reader.key?.id ?? null, keyName: reader.key?.name ?? null, redactionStatus: row.redaction_status },
    });
  }
}
