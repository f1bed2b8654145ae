// Must-show 3 (second half): an audio job with insights on carries the same analytics as posting its
// transcript, and insightsProcessed is real; a job naming an unknown or a redacting insight is refused.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { hasFestivalVoice, hasTool, speakFestival, stereo, tempDir } from '../helpers/audio.js';
import { json, startTestService, type TestService } from '../helpers/harness.js';
import { transcribeAndWait } from '../helpers/jobs.js';
import { multipart } from '../helpers/multipart.js';
import { required } from '../helpers/require.js';

const canRun = hasTool('ffmpeg') && hasFestivalVoice() && fs.existsSync('/usr/share/pocketsphinx/model/en-us/en-us');
const PROJECT = {
  sid: 'ci-jobs',
  scrubtext: false,
  insights: [
    { id: 'anything', expression: '*', channel: 0 },
    { id: 'never', expression: '"attempt to collect a debt"', complianceViolation: true },
    // Whatever the caller says: the whole line, text and audio (redaction flags on a job, issue 18).
    { id: 'masks', expression: '*', channel: 1, redactLine: true, redactAudio: true },
  ],
};

describe('audio jobs with analytics and insights', { skip: required(!canRun && 'ffmpeg, festival\'s US voice or the PocketSphinx model is not installed') }, () => {
  let svc: TestService;
  let dir: string;
  let call: string;
  before(async () => {
    svc = await startTestService('sqlite');
    dir = tempDir();
    const agent = speakFestival('thank you for calling the bank how can i help you today', path.join(dir, 'agent.wav'));
    const caller = speakFestival('i lost my card yesterday and i am very worried about it', path.join(dir, 'caller.wav'));
    call = stereo(agent, caller, path.join(dir, 'call.wav'));
    const published = await svc.request({ method: 'POST', url: '/system/cache/v2/publish', payload: { data: JSON.stringify(PROJECT) } });
    assert.equal(published.statusCode, 200, published.body);
  });
  after(async () => {
    await svc.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('the job carries the analytics of its posted transcript; insightsProcessed is set', async () => {
    const job = await transcribeAndWait(svc, call, { fields: { sid: 'ci-jobs', insights: 'anything,never', agent_location: 'left' } });
    assert.equal(job.insightsProcessed, true);
    assert.ok(job.analytics, 'the job record carries analytics');
    assert.ok(job.analytics.talk_time_agent > 0 && job.analytics.talk_time_caller > 0, JSON.stringify(job.analytics));
    assert.ok(job.insightLines.some((l: { insightId: string; speaker: number }) => l.insightId === 'anything' && l.speaker === 0));
    assert.equal(job.analytics.insights.find((i: { id: string }) => i.id === 'never').type, 'compliance_violation');

    const posted = await svc.request({
      method: 'POST',
      url: '/system/cache/post-call',
      payload: { eventId: `job-${job.jobId}`, campaign: { agentLocation: 'left' }, vendorATranscript: job.vendorATranscript, insights: PROJECT.insights.slice(0, 2) },
    });
    assert.equal(posted.statusCode, 201, posted.body);
    const record = json(posted);
    // The job has its recording, a record has none: loudness (issue 35) is the job's alone, one entry a channel.
    const { loudness, ...fromText } = job.analytics;
    assert.deepEqual(loudness.map((l: { channel: number; role: string }) => [l.channel, l.role]), [[0, 'agent'], [1, 'caller']]);
    assert.deepEqual(fromText, record.analytics);
    assert.deepEqual(job.conversation, record.conversation);
    assert.deepEqual(job.insightLines, record.insightLines);
    assert.deepEqual(job.keyPhrases, record.keyPhrases);
    assert.equal(job.segmentsCreated, record.segmentsCreated);
  });

  test('a job without analytics or insights says so', async () => {
    const job = await transcribeAndWait(svc, call);
    assert.equal(job.insightsProcessed, false);
    assert.equal(job.analytics, undefined);
  });

  test('an insight that redacts, on a job: its lines go from every transcript shape and its audio from the recording; the analysis reports what it found', async () => {
    const job = await transcribeAndWait(svc, call, { fields: { sid: 'ci-jobs', insights: 'anything,masks', agent_location: 'left' } });
    assert.equal(job.redactionStatus, 'completed', JSON.stringify(job.redaction));
    const callerWords = job.vendorATranscript.utterances.filter((u: { metadata: { channel: number } }) => u.metadata.channel === 1).flatMap((u: { events: { word: string }[] }) => u.events.map((e) => e.word));
    assert.ok(callerWords.length > 0, 'the caller said something');
    assert.deepEqual([...new Set(callerWords)], ['[INSIGHT]'], `every word of the caller is masked: ${callerWords.join(' ')}`);
    const agentWords = job.vendorATranscript.utterances.filter((u: { metadata: { channel: number } }) => u.metadata.channel === 0).flatMap((u: { events: { word: string }[] }) => u.events.map((e) => e.word));
    assert.ok(agentWords.some((w: string) => w !== '[INSIGHT]'), 'the agent is not masked');
    for (const format of ['text', 'srt']) {
      const shape = await svc.request({ method: 'GET', url: `/asr/jobs/${job.jobId}/transcript?format=${format}` });
      for (const word of ['lost', 'worried', 'yesterday']) assert.ok(!shape.body.includes(word), `${format} holds "${word}"`);
    }
    assert.ok(job.redaction.windows.bySource.insight > 0, JSON.stringify(job.redaction.windows));
    assert.ok(job.redaction.spans.some((s: { channel: number; kind: string }) => s.channel === 1 && s.kind === 'Insight'), 'insight spans on the caller channel');
    assert.ok(!job.redaction.spans.some((s: { channel: number; kind: string }) => s.channel === 0 && s.kind === 'Insight'), 'none on the agent');
    // The redacted recording: the caller's channel edited over the lines, the agent's untouched.
    assert.ok(job.redaction.audio.spans.some((s: { channel: number; end: number; start: number }) => s.channel === 1 && s.end - s.start > 1), JSON.stringify(job.redaction.audio));
    assert.ok(!job.redaction.audio.spans.some((s: { channel: number }) => s.channel === 0), 'no audio span on the agent');
    const audio = await svc.request({ method: 'GET', url: `/asr/jobs/${job.jobId}/audio?redacted=true` });
    assert.equal(audio.statusCode, 200);
    // What it found, though its phrase is masked in the stored transcript.
    const masks = job.analytics.insights.find((i: { id: string }) => i.id === 'masks');
    assert.equal(masks.type, 'match', JSON.stringify(job.analytics.insights));
    const lines = job.insightLines.filter((l: { insightId: string }) => l.insightId === 'masks');
    assert.ok(lines.length > 0 && lines.every((l: { isRedaction: boolean; speaker: number; value: string }) => l.isRedaction && l.speaker === 1 && !/lost|worried/.test(l.value)), JSON.stringify(lines));
    assert.ok(JSON.stringify(job).indexOf('worried') < 0, 'the caller\'s words are nowhere in the job');
  });

  test('an unknown insight id, or insights without a project are refused', async () => {
    for (const [fields, pattern] of [
      [{ sid: 'ci-jobs', insights: 'nope' }, /no active insight "nope"/],
      [{ insights: 'anything' }, /give the sid/],
    ] as const) {
      const res = await svc.request({ method: 'POST', url: '/asr/transcribe', ...multipart(fields, [{ name: 'audio', filename: 'call.wav', content: fs.readFileSync(call) }]) });
      assert.equal(res.statusCode, 400, res.body);
      assert.match(json(res).detail ?? json(res).title, pattern);
    }
  });
});
