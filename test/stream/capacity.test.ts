// Live-stream admission counted across processes (store/liveStreams.ts through StreamRegistry): two services on
// one database, each with room for two streams and a cluster total of three; the fourth is refused whichever
// process it reaches, /asr/maxstreamscheck answers the same figures from both, a released stream frees its place,
// and a stream whose process stopped refreshing its row stops counting.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ServiceError } from '../../src/errors.js';
import { STREAM_STALE_SECONDS } from '../../src/stream/registry.js';
import { dialects, json, startTestService, testDatabase, type TestDatabase, type TestService } from '../helpers/harness.js';

const entry = { protocol: 'scrubline', idleSeconds: 60, close: () => {} };
/** What the registry reads of a live session: when audio last came, whether it ended; it keeps it fresh and ends it. */
function fakeSession(lastAudioAt: number): { fresh: number } {
  const session = { lastAudioAt, ended: false, audioSeconds: 0, fresh: 0, keepFresh: () => void session.fresh++, end: async () => {} };
  return session;
}

for (const dialect of await dialects()) {
  describe(`live stream capacity across processes (${dialect})`, () => {
    let database: TestDatabase;
    let a: TestService;
    let b: TestService;
    before(async () => {
      database = await testDatabase(dialect);
      const env = { SCRUBLINE_MAX_STREAMS: '2', SCRUBLINE_MAX_STREAMS_TOTAL: '3' };
      a = await startTestService(dialect, { database, env });
      b = await startTestService(dialect, { database, env });
    });
    after(async () => {
      await a.close();
      await b.close();
      await database.drop();
    });

    test('the cluster total holds across processes; each process its own; the figures agree', async () => {
      await a.services.streams.acquire('s1', entry);
      await a.services.streams.acquire('s2', entry);
      await assert.rejects(a.services.streams.acquire('s3', entry), (e: ServiceError) => e.kind === 'unavailable' && /this server is at its capacity of 2/.test(e.message));
      await b.services.streams.acquire('s4', entry);
      await assert.rejects(b.services.streams.acquire('s5', entry), (e: ServiceError) => e.extra.reason === 'at_capacity' && /cluster is at its capacity of 3/.test(e.message));
      for (const svc of [a, b]) {
        const check = json(await svc.request({ method: 'GET', url: '/asr/maxstreamscheck' }));
        assert.deepEqual([check.realtime.streams, check.realtime.capacity, check.realtime.available, check.realtime.accepting], [3, 3, 0, false]);
      }
      await a.services.streams.release('s1');
      await b.services.streams.acquire('s5', entry);
      await b.services.streams.release('s5');
      await b.services.streams.release('s4');
      await a.services.streams.release('s2');
      assert.equal(json(await a.request({ method: 'GET', url: '/asr/maxstreamscheck' })).realtime.streams, 0);
    });

    test('a stream with no audio for its idletimeout is closed with the reason', async () => {
      const closed: string[] = [];
      const idle = fakeSession(Date.now() - 5000);
      const busy = fakeSession(Date.now());
      await a.services.streams.acquire('idle-1', { protocol: 'scrubline', idleSeconds: 2, session: idle as never, close: (reason) => closed.push(reason) });
      await a.services.streams.acquire('busy-1', { protocol: 'scrubline', idleSeconds: 60, session: busy as never, close: (reason) => closed.push(`busy: ${reason}`) });
      await a.services.streams.beat();
      assert.deepEqual(closed, ['idle: no audio for 2 s (idletimeout)']);
      // The stream still talking keeps its recording fresh (the upload sweep must not take it); the idle one is closing.
      assert.deepEqual([busy.fresh, idle.fresh], [1, 0]);
      await a.services.streams.release('idle-1');
      await a.services.streams.release('busy-1');
    });

    test('rows of a process that stopped refreshing stop counting', async () => {
      const old = new Date(Date.now() - (STREAM_STALE_SECONDS + 60) * 1000).toISOString();
      await a.services.store.database.db
        .insertInto('live_streams')
        .values({ id: 'ghost', process_id: 'gone', process_capacity: 3, protocol: 'twilio', started_at: old, heartbeat_at: old })
        .execute();
      const check = json(await a.request({ method: 'GET', url: '/asr/maxstreamscheck' }));
      assert.equal(check.realtime.streams, 0);
      await a.services.streams.acquire('s6', entry);
      await a.services.streams.release('s6');
    });
  });
}
