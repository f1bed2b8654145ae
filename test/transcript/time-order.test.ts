// Stereo SRT and WebVTT cues in time order across channels (WebVTT players require it), and the json-v2 shape
// complete for a strict Speechmatics reader (job.duration, data_name, id, created_at) with or without a job.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { buildCues, renderTranscript, utterancesFor } from '../../src/transcript/index.js';
import { META, syntheticCall } from './fixture.js';
import { STRICT_JSON_V2 } from './speechmaticsJsonV2.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const strict = addFormats(new Ajv({ allErrors: true, strict: false })).compile(STRICT_JSON_V2);

/** [start seconds, first text line] of each cue of an SRT or VTT body. */
function cueTimes(body: string): { start: number; index: number; text: string }[] {
  const out: { start: number; index: number; text: string }[] = [];
  for (const block of body.replace(/^WEBVTT\n\n/, '').trim().split(/\n\n+/)) {
    const [index, times, text] = block.split('\n');
    const m = /^(\d+):(\d\d):(\d\d)[.,](\d{3}) -->/.exec(times);
    assert.ok(m, `a cue timing line: ${times}`);
    out.push({ index: Number(index), start: Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]) + Number(m[4]) / 1000, text });
  }
  return out;
}

describe('cue order', () => {
  const call = syntheticCall();
  for (const format of ['srt', 'vtt'] as const) {
    test(`stereo ${format} cues are ordered by start time and numbered in that order`, () => {
      const body = renderTranscript(format, call, META).body as string;
      const cues = cueTimes(body);
      assert.ok(cues.length > 4);
      for (let i = 1; i < cues.length; i++) {
        assert.ok(cues[i].start >= cues[i - 1].start, `cue ${i + 1} (${cues[i].start}) starts before cue ${i} (${cues[i - 1].start})`);
        assert.equal(cues[i].index, i + 1);
      }
      // Both channels are there, interleaved: the caller's 4.0 s line comes between the agent's first two lines.
      const speakers = cues.map((c) => (/Caller/.test(c.text) ? 'caller' : 'agent'));
      assert.deepEqual(speakers.slice(0, 3), ['agent', 'caller', 'agent']);
    });
  }

  test('buildCues answers cues in time order whatever the order of the utterances', () => {
    const utterances = utterancesFor(call, META);
    const byChannel = [...utterances].sort((a, b) => a.channel - b.channel || a.start - b.start);
    const cues = buildCues(call, byChannel, META);
    assert.deepEqual(cues.map((c) => c.start), [...cues.map((c) => c.start)].sort((a, b) => a - b));
    assert.deepEqual(cues.map((c) => c.index), cues.map((_, i) => i + 1));
  });
});

describe('json-v2 for a strict reader', () => {
  test('a job transcript has every required field, duration an integer', () => {
    const shape = renderTranscript('transcript', syntheticCall(), META).body as Record<string, any>;
    assert.ok(strict(shape), JSON.stringify(strict.errors));
    assert.equal(shape.job.duration, 30);
    assert.equal(shape.job.id, META.jobId);
  });

  test('without a job (the CLI) or a file name (a text job), the required fields are still there', () => {
    const call = { ...syntheticCall(), audioSeconds: 12.6 };
    const bare = renderTranscript('transcript', call, {}).body as Record<string, any>;
    assert.ok(strict(bare), JSON.stringify(strict.errors));
    assert.equal(bare.job.duration, 13);
    const textJob = renderTranscript('transcript', call, { jobId: 'job-1', createdAt: '2026-01-02T03:04:05Z' }).body as Record<string, any>;
    assert.ok(strict(textJob), JSON.stringify(strict.errors));
    assert.equal(textJob.job.data_name, 'job-1');
    assert.equal(textJob.metadata.created_at, '2026-01-02T03:04:05.000Z');
  });
});
