// Job records as answered: the processJob (resource 6) of a job row, with the vendorA and json-v2
// transcript shapes once the job is complete, and its notification deliveries.
import type { SecretBox } from '../security/secretBox.js';
import type { Store } from '../store/index.js';
import type { JobRow } from '../store/tables.js';
import type { Transcript } from '../transcript/types.js';
import { type JobExtras, jobRecord } from './jobRecord.js';
import type { OriginalsGuard, Reader } from './originalsGuard.js';

export interface JobRecordOptions {
  store: Store;
  box: SecretBox;
  /** Whether a reader may have a job's transcript (a job that owes redaction: only once it is redacted). */
  originals: OriginalsGuard;
  /** The transcript shapes carried by a completed job's record. */
  shapes?: (row: JobRow, transcript: Transcript) => Pick<JobExtras, 'vendorATranscript' | 'transcript'>;
  /** Analytics and insights of a completed job that asked for them (issue 18), from its vendorA shape. */
  analysis?: (row: JobRow, vendorATranscript: JobExtras['vendorATranscript']) => Promise<JobExtras['analysis']>;
  /** Notification deliveries of a job, credentials masked. */
  deliveries?: (jobId: string) => Promise<unknown[]>;
  /** The same for a page of jobs, in one query (a list would otherwise ask once per job). */
  deliveriesOfJobs?: (jobIds: readonly string[]) => Promise<Map<string, unknown[]>>;
}

export class JobRecords {
  constructor(private readonly options: JobRecordOptions) {}

  async transcript(row: JobRow): Promise<Transcript | undefined> {
    return (await this.options.store.jobs.result(row.id)) as Transcript | undefined;
  }

  /** The records of a page of jobs, brief (no transcript shapes), their deliveries fetched together. */
  async briefRecords(rows: readonly JobRow[]) {
    const deliveries = this.options.deliveriesOfJobs ? await this.options.deliveriesOfJobs(rows.map((row) => row.id)) : undefined;
    return Promise.all(
      rows.map((row) => (deliveries ? jobRecord(row, this.options.box, { deliveries: deliveries.get(row.id) ?? [] }) : this.record(row, { brief: true }))),
    );
  }

  /**
   * `brief` leaves out the transcript shapes (job lists). `reader`: who asks; the shapes are left out for a
   * reader the originals guard gives no transcript to (without one: a non-admin reader).
   */
  async record(row: JobRow, { brief = false, reader = { admin: false } }: { brief?: boolean; reader?: Reader } = {}) {
    const extras: JobExtras = {};
    if (!brief && row.status === 'completed' && this.options.shapes && (await this.options.originals.transcript(row, reader, false))) {
      const transcript = await this.transcript(row);
      if (transcript) Object.assign(extras, this.options.shapes(row, transcript));
      if (transcript && row.insights_completed_at && this.options.analysis) extras.analysis = await this.options.analysis(row, extras.vendorATranscript);
      // When redaction ran, only the redacted words were kept: both transcript fields carry them.
      const redaction = await this.options.store.jobs.redaction(row.id);
      if (redaction) {
        extras.transcriptRedacted = extras.transcript;
        extras.redaction = redaction;
      }
    }
    // A failed redaction keeps what it did before it gave up (windows, widened stretches, kinds heard).
    if (!brief && row.status === 'failed' && row.redaction_failure) extras.redaction = JSON.parse(row.redaction_failure);
    if (this.options.deliveries) extras.deliveries = await this.options.deliveries(row.id);
    return jobRecord(row, this.options.box, extras);
  }
}
