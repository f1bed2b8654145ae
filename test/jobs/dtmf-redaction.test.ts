// Keypad tones in a job with scrubaudio: a caller types a card number as DTMF between spoken sentences on a
// stereo 8 kHz mu-law call, reading the digits aloud under the tones (so the recognizer writes words there). The redacted copy keeps its format and duration, holds no keypad tones any more,
// is sample-for-sample the original outside the redacted spans, and the keys typed appear in no text the
// service gives out or logs (job record, every transcript format, events).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { detectDtmf } from '../../src/audio/dtmf.js';
import { probeAudio } from '../../src/audio/probe.js';
import { TRANSCRIPT_FORMATS } from '../../src/transcript/index.js';
import { durationOf, ffmpeg, hasFestivalVoice, hasTool, speakFestival, tempDir } from '../helpers/audio.js';
import { json, startTestService, type TestService } from '../helpers/harness.js';
import { transcribeAndWait } from '../helpers/jobs.js';
import { filePcm, keyFile } from '../audio/dtmfSignals.js';
import { required } from '../helpers/require.js';

const canRun = hasTool('ffmpeg') && hasFestivalVoice() && fs.existsSync('/usr/share/pocketsphinx/model/en-us/en-us');
const CARD = '4539148803436467';
const KEYS = `${CARD}#`;
const SEQ = { keys: KEYS, on: 0.1, off: 0.23 };
const DIGIT_WORDS = ['zero', 'oh', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];

describe('DTMF redaction of a job', { skip: required(!canRun && 'needs ffmpeg, festival with the US HTS voice, and PocketSphinx') }, () => {
  let svc: TestService;
  let dir: string;
  let recording: string;
  const logLines: string[] = [];
  /** Where the keypad entry is on the caller's channel (s). */
  let keysStart = 0;
  let keysEnd = 0;
  let agentSeconds = 0;

  before(async () => {
    svc = await startTestService('sqlite', { logLines });
    // The test measures the keypad span alone: a project that knowingly turns off the default cue and number windows
    // (the agent's "card number" would otherwise mute the caller's answer too: test/redact/spoken-numbers-defaults.test.ts).
    const published = await svc.request({ method: 'POST', url: '/system/cache/v2/publish', payload: { data: JSON.stringify({ sid: 'keypad-only', cueWindows: { enabled: false } }) } });
    assert.equal(published.statusCode, 200, published.body);
    dir = tempDir('scrubline-dtmf-job-');
    const agent = speakFestival('Please type your card number on the keypad, followed by the pound key.', path.join(dir, 'agent.wav'));
    const before = speakFestival('Okay, I am typing it now.', path.join(dir, 'caller-before.wav'));
    const afterSpeech = speakFestival('Done. Did the payment go through?', path.join(dir, 'caller-after.wav'));
    const tones = keyFile(SEQ, path.join(dir, 'tones.wav'), 16000);
    const spoken = speakFestival('four five three nine, one four eight eight, oh three four three, six four six seven.', path.join(dir, 'spoken.wav'));
    assert.ok(durationOf(spoken) + 0.1 < durationOf(tones) - SEQ.off, 'the digits are read while the keys are typed');
    // The keys at full level, the digits read aloud at about -10 dB under them.
    const keys = path.join(dir, 'keys.wav');
    ffmpeg(['-i', tones, '-i', spoken, '-filter_complex', '[1:a]adelay=100,volume=0.3[s];[0:a][s]amix=inputs=2:duration=first:normalize=0[a]', '-map', '[a]', '-c:a', 'pcm_s16le', keys]);
    agentSeconds = durationOf(agent);
    const beforeSeconds = durationOf(before);
    keysStart = agentSeconds + beforeSeconds + SEQ.off;
    keysEnd = agentSeconds + beforeSeconds + durationOf(keys) - SEQ.off;
    // Caller: silence while the agent speaks, a sentence, the keys, a sentence. Agent: the prompt, then silence.
    const caller = path.join(dir, 'caller.wav');
    ffmpeg(['-f', 'lavfi', '-i', `anullsrc=r=16000:cl=mono:d=${agentSeconds.toFixed(4)}`, '-i', before, '-i', keys, '-i', afterSpeech,
      '-filter_complex', '[0:a][1:a][2:a][3:a]concat=n=4:v=0:a=1[a]', '-map', '[a]', '-ar', '16000', '-c:a', 'pcm_s16le', caller]);
    const total = durationOf(caller);
    recording = path.join(dir, 'call.wav');
    ffmpeg(['-i', agent, '-i', caller,
      '-filter_complex', `[0:a]apad=whole_dur=${total.toFixed(4)}[l];[l][1:a]join=inputs=2:channel_layout=stereo[s];[s]aresample=8000[a]`,
      '-map', '[a]', '-c:a', 'pcm_mulaw', recording]);
  });
  after(async () => {
    await svc.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('the test call carries the keys on the caller channel only', () => {
    assert.equal(detectDtmf(filePcm(recording, 1), 8000).map((t) => t.digit).join(''), KEYS);
    assert.deepEqual(detectDtmf(filePcm(recording, 0), 8000), []);
  });

  test('scrubaudio: the keypad entry is a DTMF span, gone from the audio, and the keys are in no text', async () => {
    const job = await transcribeAndWait(svc, recording, { fields: { scrubaudio: 'true', types: 'CreditCardNumber', sid: 'keypad-only' }, waitSeconds: 180 });
    assert.equal(job.redactionStatus, 'completed');

    // One DTMF span, on the caller's channel, covering the whole keypad entry; kind and times only.
    const dtmf = job.redaction.spans.filter((s: any) => s.kind === 'DTMF');
    assert.equal(dtmf.length, 1, JSON.stringify(job.redaction.spans));
    assert.equal(dtmf[0].channel, 1);
    assert.ok(dtmf[0].start <= keysStart && dtmf[0].end >= keysEnd, `${JSON.stringify(dtmf[0])} vs keys ${keysStart}-${keysEnd}`);
    assert.ok(dtmf[0].start > agentSeconds && dtmf[0].end < keysEnd + 1.5, `span ${JSON.stringify(dtmf[0])} is far wider than the keys`);
    assert.deepEqual(Object.keys(dtmf[0]).sort(), ['channel', 'confidence', 'end', 'kind', 'replacement', 'start']);
    const audioSpans: { channel: number; start: number; end: number }[] = job.redaction.audio.spans;
    assert.ok(audioSpans.some((s) => s.channel === 1 && s.start <= keysStart && s.end >= keysEnd), JSON.stringify(audioSpans));

    // The redacted copy: same format and length, no keypad tones left on either channel, the rest unchanged.
    const audio = await svc.request({ method: 'GET', url: `/asr/jobs/${job.jobId}/audio?redacted=true` });
    assert.equal(audio.statusCode, 200);
    const redacted = path.join(dir, 'redacted.wav');
    fs.writeFileSync(redacted, audio.rawPayload);
    const [a, b] = [await probeAudio(recording), await probeAudio(redacted)];
    assert.deepEqual([b.codec, b.sampleRate, b.channels], [a.codec, a.sampleRate, a.channels]);
    assert.ok(Math.abs(a.durationSeconds - b.durationSeconds) < 0.01);
    let compared = 0;
    for (const channel of [0, 1]) {
      const original = filePcm(recording, channel);
      const edited = filePcm(redacted, channel);
      assert.equal(edited.length, original.length);
      assert.deepEqual(detectDtmf(edited, 8000), [], `keypad tones left on channel ${channel}`);
      const inside = (i: number) => audioSpans.some((s) => s.channel === channel && i >= Math.floor(s.start * 8000) && i < Math.ceil(s.end * 8000));
      for (let i = 0; i < original.length; i++) {
        if (inside(i)) continue;
        compared++;
        if (original[i] !== edited[i]) assert.fail(`channel ${channel} sample ${i} (${(i / 8000).toFixed(3)} s) changed outside the spans`);
      }
    }
    assert.ok(compared > 8000 * 2 * (a.durationSeconds - 4), `${compared} samples compared`);

    // The keys appear nowhere: job record, every transcript format (redacted or not), events, logs.
    const texts: string[] = [JSON.stringify(job), (await svc.request({ method: 'GET', url: `/asr/jobs/${job.jobId}` })).body];
    for (const format of TRANSCRIPT_FORMATS) {
      for (const redactedFlag of ['true', 'false']) {
        const r = await svc.request({ method: 'GET', url: `/asr/jobs/${job.jobId}/transcript?format=${format}&redacted=${redactedFlag}` });
        assert.equal(r.statusCode, 200, `${format}: ${r.body}`);
        texts.push(r.body);
      }
    }
    texts.push((await svc.request({ method: 'GET', url: `/asr/jobs?limit=10` })).body);
    texts.push(logLines.join('\n'));
    const ccDigits = new RegExp(CARD.slice(0, 8));
    for (const text of texts) {
      assert.ok(!ccDigits.test(text.replace(/[\s,-]/g, '')), `the card number leaked: ${text.slice(0, 300)}`);
      assert.ok(!/"digit"/.test(text), 'a key field leaked');
    }
    // What the recognizer made of the keypad entry is masked; the speech around it is still transcribed.
    const plain = (await svc.request({ method: 'GET', url: `/asr/jobs/${job.jobId}/transcript?format=text` })).body.toLowerCase();
    assert.match(plain, /\[dtmf\]/, plain);
    assert.ok(/card|keypad|number|pound/.test(plain), `the agent's prompt is still there: ${plain}`);
    const results: any[] = json(await svc.request({ method: 'GET', url: `/asr/jobs/${job.jobId}/transcript?format=transcript` })).results;
    const caller = results.filter((r) => r.type === 'word' && r.channel === 'channel_2');
    const over = caller.filter((r) => r.start_time < keysEnd && r.end_time > keysStart).map((r) => r.alternatives[0].content);
    assert.deepEqual([...new Set(over)], ['[DTMF]'], `words over the keys: ${over.join(' ')}`);
    assert.ok(caller.some((r) => r.end_time < keysStart && r.alternatives[0].content !== '[DTMF]'), 'the caller\'s words before the keys are kept');
    for (const r of caller) assert.ok(!DIGIT_WORDS.includes(r.alternatives[0].content), `a digit word left: ${JSON.stringify(r)}`);
  });
});
