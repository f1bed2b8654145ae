// SIGTERM stops `scrubline serve` cleanly while a record is being redacted on a worker: the redaction workers are
// stopped after their grace instead of being waited for, the record is answered 503 (send it again) and nothing
// of it is stored, and the process exits 0 by itself (not by the 10 s forced exit, which exits 1). Before, the
// stop waited for the task (however long) behind the request in flight. On SQLite and PostgreSQL.
import assert from 'node:assert/strict';
import http from 'node:http';
import { describe, test } from 'node:test';
import { startServerProcess } from '../helpers/cli.js';
import { dialects, testDatabase } from '../helpers/harness.js';
import { until } from '../helpers/poll.js';

/** A long call asking for every kind and every analysis: many seconds on the one redaction worker. */
const long = {
  eventId: 'long-call',
  campaign: { enableEntityExtraction: true, enableProfanityFiltering: true },
  redactionRequest: { types: ['all'] },
  utterances: Array.from({ length: 5000 }, (_, i) => ({
    speaker: i % 2,
    text: i % 2 ? `I called Northwind Traders about order ${i}, card 4111 1111 1111 1111, my ssn is 123-45-6789` : `Thanks for calling Contoso Bank, how can I help with ticket ${i} today?`,
  })),
};

function post(url: string, record: object): Promise<{ status: number; body: string }> {
  return new Promise((resolve) => {
    const body = JSON.stringify(record);
    const req = http.request(`${url}/system/cache/post-call`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    // A connection closed without an answer is told as status 0.
    req.on('error', (error) => resolve({ status: 0, body: error.message }));
    req.end(body);
  });
}

for (const dialect of await dialects()) {
  describe(`scrubline serve stops on SIGTERM while a record is redacted (${dialect})`, () => {
    test('the worker is stopped, the record answered 503 and not stored, the process exits 0', async () => {
      const db = await testDatabase(dialect);
      const server = await startServerProcess({ ...db.env, SCRUBLINE_SECRET_KEY: 'stop-test', SCRUBLINE_REDACTORS: '1', SCRUBLINE_REDACT_CLOSE_GRACE_MS: '1', LOG_LEVEL: 'info' });
      try {
        const answer = post(server.url, long);
        // The request has arrived (the server logs it) before the signal: it is in flight, not refused at the door.
        await until(() => /"url":"\/system\/cache\/post-call"/.test(server.output()), 'the record to arrive');
        const code = await server.stop('SIGTERM');
        const answered = await answer;
        assert.equal(code, 0, server.output().slice(-2000));
        assert.equal(answered.status, 503, answered.body.slice(0, 300));
        assert.match(answered.body, /stopping/);
      } finally {
        await server.stop('SIGKILL');
      }
      // Nothing of it was stored: a new process finds no such record.
      const again = await startServerProcess({ ...db.env, SCRUBLINE_SECRET_KEY: 'stop-test' });
      try {
        assert.equal((await fetch(`${again.url}/cache/post-call/long-call`)).status, 404);
      } finally {
        await again.stop();
        await db.drop();
      }
    });
  });
}
