// Live-stream metrics (observability/metrics.ts, fed by stream/registry.ts and stream/session.ts): open streams by
// protocol while a stream runs, refusals by reason, seconds of audio streamed, and one partial-lag / final-delay
// observation per partial / final sent. Figures are compared with what the stream itself reported, never with times.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { encodeFile, streamAudio } from '../../examples/stream-client.js';
import { installedModels } from '../../src/engine/models.js';
import { dialects, json, startTestService, type TestService } from '../helpers/harness.js';
import { devDataSkip, loadReferences } from '../helpers/devData.js';
import { required } from '../helpers/require.js';

const skip = devDataSkip() || required(!installedModels().some((m) => m.name === 'en-us:wideband') ? 'the PocketSphinx model is not installed' : false);
const RATE = 16000;
const entry = { protocol: 'twilio', idleSeconds: 60, close: () => {} };

/** A sample's value in the Prometheus text (0 when absent). */
function sample(text: string, name: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line ? Number(line.slice(name.length + 1)) : 0;
}

const dialect = (await dialects()).at(-1)!;

describe(`live-stream metrics (${dialect})`, { skip }, () => {
  let svc: TestService;
  let url: string;
  const scrape = async () => (await svc.request({ method: 'GET', url: '/asr/metrics' })).body;
  before(async () => {
    svc = await startTestService(dialect, { env: { SCRUBLINE_MAX_STREAMS: '1' } });
    url = (await svc.app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws');
  });
  after(async () => svc?.close());

  test('open by protocol, refused at capacity', async () => {
    await svc.services.streams.acquire('held', entry);
    let text = await scrape();
    assert.equal(sample(text, 'scrubline_streams_open{protocol="twilio"}'), 1);
    assert.equal(sample(text, 'scrubline_streams_open{protocol="scrubline"}'), 0);
    await assert.rejects(svc.services.streams.acquire('second', { ...entry, protocol: 'scrubline' }));
    text = await scrape();
    assert.equal(sample(text, 'scrubline_streams_refused_total{reason="at_capacity"}'), 1);
    await svc.services.streams.release('held');
    assert.equal(sample(await scrape(), 'scrubline_streams_open{protocol="twilio"}'), 0);
  });

  test('a stream: its audio seconds, one lag per partial and one delay per final', async () => {
    const file = (loadReferences() ?? []).find((r) => /jfk/.test(r.audio))!;
    const { audio, bytesPerSecond } = encodeFile(file.path, 'pcm_s16le', RATE, 1);
    const result = await streamAudio({ url: `${url}/asr/stream`, start: { sampleRate: RATE, encoding: 'pcm_s16le', job: false }, audio, bytesPerSecond, pace: 0 });
    assert.equal(result.closeCode, 1000, result.closeReason);
    const summary = result.summary!;
    assert.ok(summary.finals > 0 && summary.partials > 0, JSON.stringify(summary));
    const text = await scrape();
    assert.equal(sample(text, 'scrubline_stream_audio_seconds_total{protocol="scrubline"}'), summary.audioSeconds);
    assert.equal(sample(text, 'scrubline_stream_final_delay_seconds_count'), summary.finals);
    assert.equal(sample(text, 'scrubline_stream_partial_lag_seconds_count'), summary.partials);
    assert.equal(sample(text, 'scrubline_streams_open{protocol="scrubline"}'), 0);
    assert.equal(json(await svc.request({ method: 'GET', url: '/asr/maxstreamscheck' })).realtime.streams, 0);
  });
});
