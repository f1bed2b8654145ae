// scrubaudio on a real recording: the spoken SSN (and, in the second test, a card number and a name) becomes a
// tone in a copy with the same duration and format, sample for sample the original outside the spans;
// recognizing the redacted copy again finds none of the values, and the text shows the masks.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { probeAudio } from '../../src/audio/probe.js';
import { recognizeFile } from '../../src/engine/recognize.js';
import { hasFestivalVoice, hasTool, speakFestival, tempDir } from '../helpers/audio.js';
import { startTestService, type TestService } from '../helpers/harness.js';
import { transcribeAndWait } from '../helpers/jobs.js';
import { required } from '../helpers/require.js';

const canRun = hasTool('ffmpeg') && hasFestivalVoice() && fs.existsSync('/usr/share/pocketsphinx/model/en-us/en-us');
const DIGITS = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];

describe('audio redaction of a job', { skip: required(!canRun && 'needs ffmpeg, festival with the US HTS voice, and PocketSphinx') }, () => {
  let svc: TestService;
  let dir: string;
  let recording: string;
  before(async () => {
    svc = await startTestService('sqlite');
    // These tests measure the audio edit of the detected values' own spans: a project that knowingly turns off the
    // default number windows (which would mute each one-turn recording whole: test/redact/spoken-numbers-defaults.test.ts).
    const published = await svc.request({ method: 'POST', url: '/system/cache/v2/publish', payload: { data: JSON.stringify({ sid: 'spans-only', cueWindows: { enabled: false } }) } });
    assert.equal(published.statusCode, 200, published.body);
    dir = tempDir();
    recording = speakFestival('my social security number is one two three four five six seven eight nine. thank you.', path.join(dir, 'ssn.wav'));
  });
  after(async () => {
    await svc.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('the SSN is gone from the text and from the audio', async () => {
    const job = await transcribeAndWait(svc, recording, { fields: { scrubaudio: 'true', types: 'USSocialSecurityNumber', sid: 'spans-only' } });
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
    // The span is the 1 kHz tone (the default scrubsound), with no speech left in it.
    const [span] = job.redaction.audio.spans as { start: number; end: number }[];
    const inSpan = pcmOf(redacted).subarray(Math.ceil(span.start * b.sampleRate) + 10, Math.floor(span.end * b.sampleRate) - 10);
    const share = goertzelShare(inSpan, b.sampleRate, 1000);
    assert.ok(share > 0.9, `${(share * 100).toFixed(0)}% of the span's energy at 1 kHz`);

    const again = await recognizeFile(redacted, {});
    const heard = again.channels[0].words.map((w) => w.word);
    for (const digit of DIGITS) assert.ok(!heard.includes(digit), `"${digit}" is still audible: ${heard.join(' ')}`);
    assert.ok(heard.includes('security') || heard.includes('social'), `the rest is still there: ${heard.join(' ')}`);
    // The original is deleted once the copy is checked (keepOriginal keeps it: test/jobs/original-audio.test.ts).
    const served = await svc.request({ method: 'GET', url: `/asr/jobs/${job.jobId}/audio` });
    assert.deepEqual(served.rawPayload, audio.rawPayload, '/audio serves the redacted copy');
  });

  test('an SSN, a card number and a name with scrubsound=silence: each span silent, the audio outside untouched, none heard again', async () => {
    const call = speakFestival(
      // A Luhn-valid test card number, 4532 0151 1283 0366, read in groups.
      'hello my name is john smith. my card number is four five three two, zero one five one, one two eight three, zero three six six. ' +
        'and my social security number is one two three four five six seven eight nine. thank you.',
      path.join(dir, 'three.wav'),
    );
    const job = await transcribeAndWait(svc, call, {
      fields: { scrubaudio: 'true', scrubsound: 'silence', types: 'Person,CreditCardNumber,USSocialSecurityNumber', sid: 'spans-only' },
      waitSeconds: 180,
    });
    const kinds = new Set(job.redaction.spans.map((sp: { kind: string }) => sp.kind));
    for (const kind of ['Person', 'CreditCardNumber', 'USSocialSecurityNumber']) assert.ok(kinds.has(kind), `${kind} redacted: ${[...kinds].join(', ')}`);
    const text = (await svc.request({ method: 'GET', url: `/asr/jobs/${job.jobId}/transcript?format=text` })).body.toLowerCase();
    assert.doesNotMatch(text, /john|smith/);

    const audio = await svc.request({ method: 'GET', url: `/asr/jobs/${job.jobId}/audio?redacted=true` });
    const redacted = path.join(dir, 'three-redacted.wav');
    fs.writeFileSync(redacted, audio.rawPayload);
    const [a, b] = [await probeAudio(call), await probeAudio(redacted)];
    assert.deepEqual([b.codec, b.sampleRate, b.channels], [a.codec, a.sampleRate, a.channels]);
    assert.ok(Math.abs(a.durationSeconds - b.durationSeconds) < 0.01);

    // Sample by sample: outside the recorded spans the original; inside, silence.
    const original = pcmOf(call);
    const edited = pcmOf(redacted);
    assert.equal(edited.length, original.length);
    const rate = a.sampleRate;
    const spans = job.redaction.audio.spans as { start: number; end: number }[];
    assert.ok(spans.length >= 3, JSON.stringify(spans));
    const inside = (i: number) => spans.some((sp) => i >= Math.floor(sp.start * rate) && i < Math.ceil(sp.end * rate));
    let outside = 0;
    for (let i = 0; i < original.length; i++) {
      if (inside(i)) continue;
      outside++;
      if (original[i] !== edited[i]) assert.fail(`sample ${i} (${(i / rate).toFixed(3)} s) changed outside the spans`);
    }
    assert.ok(outside > rate, `${outside} samples compared outside the spans`);
    for (const sp of spans) {
      const stretch = edited.subarray(Math.ceil(sp.start * rate) + 1, Math.floor(sp.end * rate) - 1);
      assert.ok(stretch.length > 0 && stretch.every((x) => x === 0), `span ${sp.start}-${sp.end} is silent`);
    }

    const heard = (await recognizeFile(redacted, {})).channels[0].words.map((w) => w.word);
    for (const word of ['john', 'smith', 'zero', ...DIGITS]) assert.ok(!heard.includes(word), `"${word}" is still audible: ${heard.join(' ')}`);
    assert.ok(heard.includes('card') || heard.includes('security'), `the rest is still there: ${heard.join(' ')}`);
  });
});

/** 16-bit PCM of a file's first channel at its own rate. */
function pcmOf(file: string): Int16Array {
  const out = execFileSync('ffmpeg', ['-v', 'error', '-i', file, '-ac', '1', '-f', 's16le', '-acodec', 'pcm_s16le', '-'], { maxBuffer: 1 << 30 });
  return new Int16Array(out.buffer.slice(out.byteOffset, out.byteOffset + out.length));
}

/** Share of the stretch's energy at `hz` (Goertzel power against total power, both per sample). */
function goertzelShare(samples: Int16Array, rate: number, hz: number): number {
  const w = (2 * Math.PI * hz) / rate;
  const coeff = 2 * Math.cos(w);
  let s1 = 0;
  let s2 = 0;
  let total = 0;
  for (const x of samples) {
    const s0 = x + coeff * s1 - s2;
    s2 = s1;
    s1 = s0;
    total += x * x;
  }
  const power = s1 * s1 + s2 * s2 - coeff * s1 * s2;
  // A pure sine of amplitude A over N samples: Goertzel power N²A²/4, total power N·A²/2.
  return total === 0 ? 0 : (2 * power) / (samples.length * total);
}
