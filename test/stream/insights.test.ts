// Real-time insights in live streams (issues 18/19): a published project's realTime insight fires on the final
// of dev audio (jfk.wav) that completes its phrase, with the alert, prompt and id the real-call path gives the same
// finals; an insight without realTime never does; and insights see the text as sent, so a phrase said inside a
// marked window (masked) raises nothing. Real socket, real engine; no timing asserted.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { encodeFile, streamAudio, type StreamResult } from '../../examples/stream-client.js';
import { installedModels } from '../../src/engine/models.js';
import { devAudio, hasTool } from '../helpers/audio.js';
import { dialects, json, startTestService, type TestService } from '../helpers/harness.js';
import { required } from '../helpers/require.js';

const skip = required(!hasTool('ffmpeg') ? 'ffmpeg is needed' : !installedModels().some((m) => m.name === 'en-us:wideband') ? 'the PocketSphinx model is not installed' : false);

// What PocketSphinx's stream finals make of jfk.wav (checked on the engine): "and all my fellow americans and not
// one your honor i think it over you and when you can do for your country". The first "your country" comes out as
// "your honor"; the phrase below is recognized once, at the end.
const PHRASE = 'for your country';
const PROJECT = {
  sid: 'live-jfk',
  rules: [],
  insights: [
    { id: 'civic', name: 'Civic duty', expression: `"${PHRASE}"`, realTime: true, alert: true, alertMessage: 'the country came up', prompt: 'offer the civic plan' },
    { id: 'post-only', expression: 'americans' },
  ],
};

const finals = (r: StreamResult) => r.messages.filter((m) => m.message.type === 'realTimeMessage' && m.message.realTimeMessage.isFinal).map((m) => m.message);
const pick = (m: Record<string, any>) => ({ alert: m.alert, prompt: m.prompt, insights: m.insights });

const dialect = (await dialects()).at(-1)!;

describe(`real-time insights in live streams (${dialect})`, { skip }, () => {
  let svc: TestService;
  let url: string;
  let audio: Buffer;
  let bytesPerSecond: number;
  before(async () => {
    svc = await startTestService(dialect, { env: { SCRUBLINE_MAX_STREAMS: '1' } });
    url = (await svc.app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws');
    const published = await svc.request({ method: 'POST', url: '/system/cache/v2/publish', payload: { data: JSON.stringify(PROJECT) } });
    assert.equal(published.statusCode, 200, published.body);
    ({ audio, bytesPerSecond } = encodeFile(devAudio('audio/jfk.wav')!, 'pcm_s16le', 16000, 1));
  });
  after(() => svc?.close());

  test('the final that completes the phrase carries alert, prompt and insights, as POST /cache/real-call gives the same finals', async () => {
    const result = await streamAudio({ url: `${url}/asr/stream`, start: { sampleRate: 16000, encoding: 'pcm_s16le', sid: 'live-jfk', job: false }, audio, bytesPerSecond, pace: 2 });
    assert.equal(result.closeCode, 1000, result.closeReason);
    const f = finals(result);
    const said = f.map((m) => m.realTimeMessage.text).join(' | ');
    const raising = f.filter((m) => m.realTimeMessage.insights !== undefined);
    assert.equal(raising.length, 1, `one final raises the insight: ${said}`);
    assert.deepEqual(pick(raising[0].realTimeMessage), { alert: 'the country came up', prompt: 'offer the civic plan', insights: 'civic' });
    // It is the final where the phrase ends (the phrase may start in the one before).
    const upTo = f.slice(0, f.indexOf(raising[0]) + 1).map((m) => m.realTimeMessage.text).join(' ');
    const before = f.slice(0, f.indexOf(raising[0])).map((m) => m.realTimeMessage.text).join(' ');
    assert.ok(upTo.includes(PHRASE) && !before.includes(PHRASE), said);
    for (const m of result.messages.filter((x) => x.message.type === 'realTimeMessage' && !x.message.realTimeMessage.isFinal)) {
      assert.equal(m.message.realTimeMessage.alert, undefined, 'partials are not evaluated');
    }
    assert.ok(!JSON.stringify(result.messages).includes('post-only'), 'an insight without realTime is for the post-call record only');

    // The same finals through the real-call path: the same fields on each.
    for (const m of f) {
      const rt = m.realTimeMessage;
      const res = await svc.request({
        method: 'POST',
        url: '/cache/real-call',
        payload: { engagementId: 'same-finals', campaign: 'live-jfk', speaker: rt.speaker, text: rt.text, isFinal: true, messageStartTime: rt.messageStartTime, messageEndTime: rt.messageEndTime },
      });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(pick(json(res).realTimeMessage), pick(rt), `final ${m.sequence}: ${rt.text}`);
    }
  });

  test('insights match the redacted text: the phrase said inside a marked window raises nothing', async () => {
    const result = await streamAudio({
      url: `${url}/asr/stream`,
      start: { sampleRate: 16000, encoding: 'pcm_s16le', sid: 'live-jfk', job: false },
      audio,
      bytesPerSecond,
      pace: 2,
      controls: [{ atSeconds: 0, message: { type: 'pause' } }],
    });
    assert.equal(result.closeCode, 1000, result.closeReason);
    const f = finals(result);
    assert.ok(f.length > 0);
    for (const m of f) {
      assert.match(m.realTimeMessage.text, /^(\[SENSITIVE\] ?)+$/, 'every word is the mask');
      assert.deepEqual(pick(m.realTimeMessage), { alert: undefined, prompt: undefined, insights: undefined });
    }
  });
});
