// Every development recording through the API, as a client would send it: each job completes with word
// times, and the word error rate against references.tsv stays within the regression bounds.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { devDataSkip, loadReferences, WER_BOUNDS } from '../helpers/devData.js';
import { json, startTestService, type TestService } from '../helpers/harness.js';
import { multipart } from '../helpers/multipart.js';
import { overallWer, wer, type WerResult } from '../helpers/wer.js';

describe('dev set through the API', { skip: devDataSkip() }, () => {
  let svc: TestService;
  const words = new Map<string, string[][]>(); // file -> words per channel
  before(async () => {
    svc = await startTestService('sqlite');
    const files = [...new Set(loadReferences()!.map((r) => r.path))];
    const submitted = await Promise.all(
      files.map(async (file) => {
        const res = await svc.request({ method: 'POST', url: '/asr/transcribe', ...multipart({}, [{ name: 'audio', filename: path.basename(file), content: fs.readFileSync(file) }]) });
        assert.equal(res.statusCode, 202, res.body);
        return { file, jobId: json(res).jobId as string };
      }),
    );
    for (const { file, jobId } of submitted) {
      const job = json(await svc.request({ method: 'GET', url: `/asr/jobs/${jobId}?wait=300` }));
      assert.equal(job.status, 'completed', `${file}: ${job.message}`);
      const channels: string[][] = [];
      for (const u of job.vendorATranscript.utterances as { metadata: { channel: number }; events: { word: string; start: number; end: number }[] }[]) {
        for (const e of u.events) {
          assert.ok(e.start >= 0 && e.end >= e.start && e.end <= job.vendorATranscript.audiosecs + 0.05, `${file}: word time ${e.start}-${e.end}`);
          (channels[u.metadata.channel] ??= []).push(e.word);
        }
      }
      words.set(file, channels);
    }
  });
  after(() => svc.close());

  test(`word error rate within ${WER_BOUNDS.overall * 100}% overall and ${WER_BOUNDS.file * 100}% per file`, (t) => {
    const results: WerResult[] = [];
    for (const ref of loadReferences()!) {
      const hyp = words.get(ref.path)?.[ref.channel] ?? [];
      const r = wer(ref.text, hyp);
      results.push(r);
      t.diagnostic(`${ref.audio}#${ref.channel} WER ${(r.wer * 100).toFixed(1)}%`);
      assert.ok(r.wer <= WER_BOUNDS.file, `${ref.audio}#${ref.channel}: ${(r.wer * 100).toFixed(1)}% "${hyp.join(' ')}"`);
    }
    const overall = overallWer(results);
    t.diagnostic(`overall WER ${(overall.wer * 100).toFixed(1)}%`);
    assert.ok(overall.wer <= WER_BOUNDS.overall, `overall WER ${(overall.wer * 100).toFixed(1)}%`);
  });
});
