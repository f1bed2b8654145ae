// scrubaudio on a real recording: the spoken SSN becomes a tone in a copy with the same duration and format,
// recognizing the redacted copy again finds none of its digits, and the text shows the mask.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { probeAudio } from '../../src/audio/probe.js';
import { recognizeFile } from '../../src/engine/recognize.js';
import { hasFestivalVoice, hasTool, speakFestival, tempDir } from '../helpers/audio.js';
import { json, startTestService, type TestService } from '../helpers/harness.js';
import { multipart } from '../helpers/multipart.js';

const canRun = hasTool('ffmpeg') && hasFestivalVoice() && fs.existsSync('/usr/share/pocketsphinx/model/en-us/en-us');
const DIGITS = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];

describe('audio redaction of a job', { skip: !canRun && 'needs ffmpeg, festival with the US HTS voice, and PocketSphinx' }, () => {
  let svc: TestService;
  let dir: string;
  let recording: string;
  before(async () => {
    svc = await startTestService('sqlite');
    dir = tempDir();
    recording = speakFestival('my social security number is one two three four five six seven eight nine. thank you.', path.join(dir, 'ssn.wav'));
  });
  after(async () => {
    await svc.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('the SSN is gone from the text and from the audio', async () => {
    const res = await svc.request({
      method: 'POST',
      url: '/asr/transcribe?wait=120',
      ...multipart({ scrubaudio: 'true', types: 'USSocialSecurityNumber' }, [{ name: 'audio', filename: 'ssn.wav', content: fs.readFileSync(recording) }]),
    });
    assert.equal(res.statusCode, 200, res.body);
    const job = json(res);
    assert.equal(job.status, 'completed', job.message);
    assert.equal(job.redactionStatus, 'completed');
    const text = (await svc.request({ method: 'GET', url: `/asr/jobs/${job.jobId}/transcript?format=text` })).body;
    assert.match(text, /\[US_SOCIAL_SECURITY_NUMBER\]/);
    for (const digit of DIGITS) assert.ok(!text.split(/\s+/).includes(digit), `"${digit}" left in the text: ${text}`);
    assert.equal(job.redaction.audio.spans.length, 1);
    assert.equal(job.redaction.untimedSpans, 0, 'every redacted word had its time');

    const audio = await svc.request({ method: 'GET', url: `/asr/jobs/${job.jobId}/audio?redacted=true` });
    assert.equal(audio.statusCode, 200);
    const redacted = path.join(dir, 'redacted.wav');
    fs.writeFileSync(redacted, audio.rawPayload);
    const [a, b] = [await probeAudio(recording), await probeAudio(redacted)];
    assert.deepEqual([b.codec, b.sampleRate, b.channels], [a.codec, a.sampleRate, a.channels]);
    assert.ok(Math.abs(a.durationSeconds - b.durationSeconds) < 0.01);

    const again = await recognizeFile(redacted, {});
    const heard = again.channels[0].words.map((w) => w.word);
    for (const digit of DIGITS) assert.ok(!heard.includes(digit), `"${digit}" is still audible: ${heard.join(' ')}`);
    assert.ok(heard.includes('security') || heard.includes('social'), `the rest is still there: ${heard.join(' ')}`);
    const original = await svc.request({ method: 'GET', url: `/asr/jobs/${job.jobId}/audio` });
    assert.equal(original.rawPayload.length, fs.statSync(recording).size, 'the original is kept beside it');
  });
});
