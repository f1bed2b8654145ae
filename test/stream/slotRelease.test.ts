// A stream's slot is released before its socket closes, however many paths end it at once: a refused pause ends
// the stream while the client's own `end` message arrives, and before this was one ending, the second path closed
// the socket while the first was still removing the slot's row, so a client that opened its next stream on the
// close was refused "at capacity" now and then. The row's removal is slowed here on purpose (never timed): the
// order of the two events is what is asserted.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { streamAudio } from '../../examples/stream-client.js';
import { installedModels } from '../../src/engine/models.js';
import { dialects, startTestService, type TestService } from '../helpers/harness.js';
import { required } from '../helpers/require.js';

const skip = required(!installedModels().some((m) => m.name === 'en-us:wideband') ? 'the PocketSphinx model is not installed' : false);
const RATE = 16000;

for (const dialect of await dialects()) {
  describe(`a stream's slot on its close (${dialect})`, { skip }, () => {
    let svc: TestService;
    let url: string;
    const events: string[] = [];
    before(async () => {
      svc = await startTestService(dialect, { env: { SCRUBLINE_MAX_STREAMS: '1' } });
      const streams = svc.services.store.streams;
      const release = streams.release.bind(streams);
      streams.release = async (id: string) => {
        await new Promise((r) => setTimeout(r, 300));
        await release(id);
        events.push('released');
      };
      url = (await svc.app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws');
    });
    after(async () => svc?.close());

    test('a refused pause and the client\'s end at once: released before the close; the next stream is admitted', async () => {
      const audio = Buffer.alloc(RATE * 2 * 2);
      const ended = await streamAudio({
        url: `${url}/asr/stream`,
        start: { sampleRate: RATE, encoding: 'pcm_s16le', job: false },
        audio,
        bytesPerSecond: RATE * 2,
        pace: 0,
        controls: [{ atSeconds: 0.5, message: { type: 'pause', kind: 'CardNumberz' } }],
      });
      events.push('closed');
      assert.equal(ended.messages.find((m) => m.message.type === 'error')?.message.status, 400);
      assert.deepEqual(events, ['released', 'closed']);
      const next = await streamAudio({ url: `${url}/asr/stream`, start: { sampleRate: RATE, encoding: 'pcm_s16le', job: false }, audio, bytesPerSecond: RATE * 2, pace: 0 });
      assert.equal(next.closeCode, 1000, next.closeReason);
      assert.ok(next.started, 'the next stream was admitted');
    });
  });
}
