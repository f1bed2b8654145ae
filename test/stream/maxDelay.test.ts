// A stream's maxDelay (issue 33): within the documented range (0.7-4 s) it is taken, from the start message or a
// Twilio <Parameter>; outside it, or not a number, the stream is refused with a reason naming the field (400,
// close 1008) before any audio is decoded.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { streamAudio } from '../../examples/stream-client.js';
import { MAX_DELAY_RANGE } from '../../src/schema/resources/streamMessages.js';
import { parseStart } from '../../src/stream/open.js';
import { parseTwilio } from '../../src/stream/twilio.js';
import { dialects, startTestService, type TestService } from '../helpers/harness.js';

const dialect = (await dialects()).at(-1)!;
const start = { type: 'start', sampleRate: 16000, encoding: 'pcm_s16le' };
const twilioStart = (maxDelay: string) => ({ event: 'start', start: { streamSid: 'MZ1', callSid: 'CA1', tracks: ['inbound'], mediaFormat: { encoding: 'audio/x-mulaw', sampleRate: 8000 }, customParameters: { maxDelay } } });

describe('maxDelay of a stream', () => {
  test('the documented range is taken; outside it, a refusal naming maxDelay', () => {
    assert.deepEqual(MAX_DELAY_RANGE, { min: 0.7, max: 4, default: 4 });
    for (const maxDelay of [0.7, 2, 4]) assert.equal(parseStart({ ...start, maxDelay }).maxDelay, maxDelay);
    assert.equal(parseStart(start).maxDelay, undefined, 'absent: the server default (SCRUBLINE_STREAM_MAX_DELAY, else finals at utterance ends)');
    for (const maxDelay of [0.5, 0, -1, 4.5, 60, '2']) {
      assert.throws(
        () => parseStart({ ...start, maxDelay }),
        (error: Error & { issues?: { path: string }[] }) => /maxDelay/.test(error.message) && !!error.issues?.some((e) => e.path === 'maxDelay'),
        `maxDelay ${JSON.stringify(maxDelay)}`,
      );
    }
  });

  test('Twilio: a <Parameter name="maxDelay"> is the start message\'s maxDelay, and checked the same', () => {
    const ok = parseTwilio(twilioStart('1.5'));
    assert.equal(ok.event, 'start');
    assert.equal(parseStart((ok as { start: unknown }).start).maxDelay, 1.5);
    for (const bad of ['9', 'soon']) {
      const event = parseTwilio(twilioStart(bad)) as { start: unknown };
      assert.throws(() => parseStart(event.start), /maxDelay/);
    }
  });
});

describe(`maxDelay over the socket (${dialect})`, () => {
  let svc: TestService;
  let url: string;
  before(async () => {
    svc = await startTestService(dialect);
    url = (await svc.app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws');
  });
  after(async () => {
    await svc.close();
  });

  test('out of range: error 400 naming maxDelay, close 1008 with the reason', async () => {
    const result = await streamAudio({ url: `${url}/asr/stream`, start: { sampleRate: 16000, encoding: 'pcm_s16le', maxDelay: 10 }, audio: Buffer.alloc(0), bytesPerSecond: 32000 });
    assert.equal(result.closeCode, 1008);
    const error = result.messages[0].message;
    assert.equal(error.status, 400);
    assert.ok(error.errors.some((e: { path: string }) => e.path === 'maxDelay'), JSON.stringify(error));
    assert.match(result.closeReason, /maxDelay/);
  });
});
