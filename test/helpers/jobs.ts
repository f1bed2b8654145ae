// Submitting a recording to a test service and reading a finished job's outputs: the steps every job test takes.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { json, type TestService } from './harness.js';
import { multipart } from './multipart.js';

/** POST the file to /asr/transcribe, wait for it, and assert the job completed; the job record. */
export async function transcribeAndWait(
  svc: TestService,
  file: string,
  options: { fields?: Record<string, string>; query?: string; waitSeconds?: number } = {},
): Promise<any> {
  const res = await svc.request({
    method: 'POST',
    url: `/asr/transcribe?wait=${options.waitSeconds ?? 120}${options.query ?? ''}`,
    ...multipart(options.fields ?? {}, [{ name: 'audio', filename: path.basename(file), content: fs.readFileSync(file) }]),
  });
  assert.equal(res.statusCode, 200, res.body);
  const job = json(res);
  assert.equal(job.status, 'completed', job.message);
  return job;
}

/** One transcript shape of a job (`format` as the API names it), asserted 200. */
export async function transcriptShape(svc: TestService, jobId: string, format: string, redacted?: boolean) {
  const res = await svc.request({ method: 'GET', url: `/asr/jobs/${jobId}/transcript?format=${format}${redacted === undefined ? '' : `&redacted=${redacted}`}` });
  assert.equal(res.statusCode, 200, res.body);
  return res;
}
