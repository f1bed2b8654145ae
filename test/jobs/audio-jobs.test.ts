// Recordings through the API: a job completes with word times, every output shape agrees on the words and
// times, and a stereo call keeps each speaker on their own channel, also as 8 kHz mu-law telephone audio.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { devAudio, durationOf, ffmpeg, hasTool, speak, stereo, tempDir } from '../helpers/audio.js';
import { json, startTestService, type TestService } from '../helpers/harness.js';
import { transcribeAndWait, transcriptShape } from '../helpers/jobs.js';
import { wer } from '../helpers/wer.js';
import { multipart } from '../helpers/multipart.js';
import { required } from '../helpers/require.js';

const LEFT = 'he began a confused complaint against the wizard who had vanished behind the curtain on the left';
const RIGHT = 'the horizon seems extremely distant';
const canRun = hasTool('ffmpeg') && fs.existsSync('/usr/share/pocketsphinx/model/en-us/en-us');

describe('audio jobs', { skip: required(!canRun && 'ffmpeg or the PocketSphinx model is not installed') }, () => {
  let svc: TestService;
  let dir: string;
  let mono: string;
  before(async () => {
    svc = await startTestService('sqlite');
    await svc.services.worker.start();
    dir = tempDir();
    mono = devAudio('audio/jfk.wav') ?? speak('and so my fellow americans ask not what your country can do for you', path.join(dir, 'mono.wav'));
  });
  after(async () => {
    await svc.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const transcribe = (file: string, fields: Record<string, string> = {}) => transcribeAndWait(svc, file, { fields });
  const shape = (jobId: string, format: string) => transcriptShape(svc, jobId, format);

  test('every shape of one job agrees on the words and their times', async () => {
    const job = await transcribe(mono, { numtrans: 'false' });
    const vendorA = json(await shape(job.jobId, 'vendorA'));
    const events = vendorA.utterances.flatMap((u: { events: { word: string; start: number; end: number }[] }) => u.events);
    assert.ok(events.length >= 5, `recognized ${events.length} words`);
    for (const e of events) {
      assert.ok(e.start >= 0 && e.end > e.start && e.end <= vendorA.audiosecs + 0.05, `word time ${JSON.stringify(e)} inside the audio`);
    }
    assert.deepEqual(job.vendorATranscript.utterances.flatMap((u: { events: unknown[] }) => u.events), events, 'the job record carries the same shape');

    const words = events.map((e: { word: string }) => e.word);
    const v2 = json(await shape(job.jobId, 'transcript'));
    const v2Words = v2.results.filter((r: { type: string }) => r.type === 'word');
    assert.deepEqual(v2Words.map((r: { alternatives: { content: string }[] }) => r.alternatives[0].content.toLowerCase()), words);
    assert.deepEqual(v2Words.map((r: { start_time: number; end_time: number }) => [r.start_time, r.end_time]), events.map((e: { start: number; end: number }) => [e.start, e.end]));

    const utterances = json(await shape(job.jobId, 'utterances'));
    assert.deepEqual(utterances.flatMap((u: { text: string }) => u.text.split(' ')), words);
    const vendorUtts = vendorA.utterances;
    assert.deepEqual(utterances.map((u: { start: number; end: number }) => [u.start, u.end]), vendorUtts.map((u: { start: number; end: number }) => [u.start, u.end]));

    const text = (await shape(job.jobId, 'text')).body;
    assert.deepEqual(text.toLowerCase().replace(/[^a-z' \n]/g, '').split(/\s+/).filter(Boolean), words);

    const srt = (await shape(job.jobId, 'srt')).body;
    const vtt = (await shape(job.jobId, 'vtt')).body;
    assert.match(vtt, /^WEBVTT/);
    const srtTimes = [...srt.matchAll(/(\d\d):(\d\d):(\d\d),(\d\d\d) --> (\d\d):(\d\d):(\d\d),(\d\d\d)/g)].map((m) => [
      +m[1] * 3600 + +m[2] * 60 + +m[3] + +m[4] / 1000,
      +m[5] * 3600 + +m[6] * 60 + +m[7] + +m[8] / 1000,
    ]);
    assert.ok(srtTimes.length >= 1);
    for (const e of events) {
      assert.ok(srtTimes.some(([s, t]) => e.start >= s - 0.002 && e.end <= t + 0.002), `a cue covers "${e.word}" at ${e.start}`);
    }
    const cueWords = (body: string) =>
      body
        .split('\n')
        .filter((line) => line && !/-->/.test(line) && !/^\d+$/.test(line) && line !== 'WEBVTT')
        .join(' ')
        .toLowerCase()
        .replace(/<[^>]+>/g, ' ')
        .replace(/[^a-z' ]/g, ' ')
        .split(/\s+/)
        .filter(Boolean);
    assert.deepEqual(cueWords(srt), words);
    assert.deepEqual(cueWords(vtt), words);

    const usage = json(await svc.request({ method: 'GET', url: '/asr/usage' }));
    assert.ok(usage.models.some((m: { jobs: number; audioSeconds: number }) => m.jobs >= 1 && m.audioSeconds > 0));
    const metrics = (await svc.request({ method: 'GET', url: '/asr/metrics' })).body;
    assert.match(metrics, /scrubline_audio_seconds_total\{model="[^"]+"\} [0-9.]*[1-9]/);
    assert.match(metrics, /scrubline_job_real_time_factor_count\{model="[^"]+"\} [1-9]/);
    assert.match(metrics, /scrubline_jobs\{state="completed"\} [1-9]/);
  });

  /** Words per channel of a completed job, from its vendorA shape. */
  async function wordsByChannel(jobId: string) {
    const vendorA = json(await shape(jobId, 'vendorA'));
    assert.equal(vendorA.nchannels, 2);
    return [0, 1].map((c) =>
      vendorA.utterances
        .filter((u: { metadata: { channel: number } }) => u.metadata.channel === c)
        .flatMap((u: { events: { word: string; start: number; end: number }[] }) => u.events),
    ) as { word: string; start: number; end: number }[][];
  }

  test('a recording sent as the whole body (audio/wav), parameters in the query', async () => {
    const res = await svc.request({
      method: 'POST',
      url: '/asr/transcribe?wait=300&fileName=raw-call.wav&numtrans=false',
      headers: { 'content-type': 'audio/wav' },
      payload: fs.readFileSync(mono),
    });
    assert.equal(res.statusCode, 200, res.body);
    const job = json(res);
    assert.equal(job.status, 'completed');
    assert.equal(job.fileName, 'raw-call.wav');
    assert.ok(job.vendorATranscript.utterances.length > 0);
    const octets = await svc.request({ method: 'POST', url: '/asr/transcribe', headers: { 'content-type': 'application/octet-stream' }, payload: Buffer.from('not audio at all '.repeat(30)) });
    assert.equal(octets.statusCode, 422, octets.body);
  });

  test('a stereo call keeps each speaker on their channel, also as 8 kHz mu-law (synthetic, timed)', { skip: required(!hasTool('espeak-ng') && 'no espeak-ng') }, async () => {
    // The agent speaks first on the left; the caller answers on the right once the agent is done. Each
    // channel's words must fall in its own speaker's time, whatever the recognizer makes of them.
    const agent = speak(LEFT, path.join(dir, 'agent.wav'));
    const agentSeconds = durationOf(agent);
    const callerRaw = speak(RIGHT, path.join(dir, 'caller-raw.wav'));
    const caller = path.join(dir, 'caller.wav');
    ffmpeg(['-i', callerRaw, '-af', `adelay=${Math.round((agentSeconds + 1) * 1000)}`, caller]);
    const call2 = stereo(agent, caller, path.join(dir, 'two-party.wav'));
    const telephone = path.join(dir, 'two-party-8k-mulaw.wav');
    ffmpeg(['-i', call2, '-ar', '8000', '-ac', '2', '-c:a', 'pcm_mulaw', telephone]);
    for (const file of [call2, telephone]) {
      const [left, right] = await wordsByChannel((await transcribe(file)).jobId);
      assert.ok(left.length > 0 && right.length > 0, `both channels have words (${path.basename(file)})`);
      for (const w of left) assert.ok(w.end <= agentSeconds + 0.3, `agent word "${w.word}" at ${w.start} lies in the agent's turn (${path.basename(file)})`);
      for (const w of right) assert.ok(w.start >= agentSeconds + 0.5, `caller word "${w.word}" at ${w.start} lies in the caller's turn (${path.basename(file)})`);
    }
  });

  test('the dev stereo recording gives each channel its own speaker, also as 8 kHz mu-law', { skip: required(!devAudio('audio/stereo/stereo_diarization.wav') && 'dev data not at hand', 'SCRUBLINE_REQUIRE_DEV_DATA') }, async () => {
    const dev = devAudio('audio/stereo/stereo_diarization.wav')!;
    const telephone = path.join(dir, 'dev-8k-mulaw.wav');
    ffmpeg(['-i', dev, '-ar', '8000', '-ac', '2', '-c:a', 'pcm_mulaw', telephone]);
    for (const file of [dev, telephone]) {
      const job = await transcribe(file);
      const byChannel = (await wordsByChannel(job.jobId)).map((events) => events.map((e) => e.word));
      const refs = [LEFT, RIGHT];
      for (const c of [0, 1]) {
        assert.ok(byChannel[c].length > 0, `channel ${c} has words (${path.basename(file)})`);
        const own = wer(refs[c], byChannel[c]).wer;
        const other = wer(refs[1 - c], byChannel[c]).wer;
        assert.ok(own < other, `channel ${c} is closer to its own speaker (${own.toFixed(2)}) than to the other (${other.toFixed(2)}) in ${path.basename(file)}`);
      }
      const utterances = json(await shape(job.jobId, 'utterances'));
      assert.deepEqual([...new Set(utterances.map((u: { channel: number }) => u.channel))].sort(), [0, 1]);
    }
  });
});

describe('zip uploads', { skip: required(!canRun && 'ffmpeg or the PocketSphinx model is not installed') }, () => {
  let svc: TestService;
  let dir: string;
  before(async () => {
    svc = await startTestService('sqlite');
    dir = tempDir();
  });
  after(async () => {
    await svc.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function zipOf(entries: { name: string; content: Buffer }[]): Promise<Buffer> {
    const { ZipFile } = await import('yazl');
    const zip = new ZipFile();
    for (const entry of entries) zip.addBuffer(entry.content, entry.name);
    zip.end();
    const chunks: Buffer[] = [];
    for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  test('isZip: one job per recording; a file that is not audio is reported beside them', async () => {
    const tone = path.join(dir, 'tone.wav');
    ffmpeg(['-f', 'lavfi', '-i', 'sine=frequency=440:duration=1', '-ar', '16000', tone]);
    const zip = await zipOf([
      { name: 'calls/one.wav', content: fs.readFileSync(tone) },
      { name: 'calls/two.wav', content: fs.readFileSync(tone) },
      { name: 'calls/readme.txt', content: Buffer.from('not audio '.repeat(50)) },
      { name: '__MACOSX/._one.wav', content: Buffer.from('resource fork') },
      { name: 'deep/nested/folder/three.wav', content: fs.readFileSync(tone) },
    ]);
    const res = await svc.request({ method: 'POST', url: '/asr/transcribe', ...multipart({ isZip: 'true' }, [{ name: 'audio', filename: 'batch.zip', content: zip }]) });
    assert.equal(res.statusCode, 202, res.body);
    const body = json(res);
    assert.deepEqual(body.jobs.map((j: { fileName: string }) => j.fileName).sort(), ['one.wav', 'three.wav', 'two.wav']);
    assert.deepEqual(body.rejected.map((r: { fileName: string }) => r.fileName), ['readme.txt']);
    assert.deepEqual(fs.readdirSync(path.join(svc.database.dataDir, 'tmp')), [], 'unpacked entries are moved or removed');
    for (const job of body.jobs) {
      const done = json(await svc.request({ method: 'GET', url: `/asr/jobs/${job.jobId}?wait=300` }));
      assert.equal(done.status, 'completed');
    }
    const bad = await svc.request({ method: 'POST', url: '/asr/transcribe', ...multipart({ isZip: 'true' }, [{ name: 'audio', filename: 'bad.zip', content: Buffer.from('PK not really') }]) });
    assert.equal(bad.statusCode, 422, bad.body);
    assert.equal(json(bad).reason, 'not_zip');
  });
});
