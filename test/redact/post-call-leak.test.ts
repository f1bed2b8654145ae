// A conversation record seeded with known values goes through post-call with redaction asked for: no seeded
// value, in any spelling planted, survives in the answer, the stored row, or the record read back.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { dialects, json, startTestService, type TestService } from '../helpers/harness.js';

const SSN_WORDS = 'one two three four five six seven eight nine';
const CARD = '4111 1111 1111 1111';
const record = {
  eventId: 'leak-1',
  conversationId: 'c-leak',
  redactionRequest: { types: ['Person', 'USSocialSecurityNumber', 'CreditCardNumber', 'Email'] },
  vendorATranscript: {
    utterances: [
      {
        metadata: { channel: 1 },
        events: `my name is john smith and my social is ${SSN_WORDS}`.split(' ').map((word, i) => ({ word, start: i * 0.4, end: i * 0.4 + 0.35, confidence: 0.9 })),
      },
    ],
    ctidata: { full_name: 'John Smith', call_type: 'inbound' },
  },
  processJob: {
    transcript: {
      results: `my card is ${CARD.replace(/ /g, ' ')} thanks`.split(' ').map((content, i) => ({
        type: 'word', start_time: i, end_time: i + 0.5, channel: 'channel_2', alternatives: [{ content, confidence: 0.9 }],
      })),
    },
  },
  utterances: [
    { text: 'My name is John Smith, email john.smith@example.com', formattedText: 'My name is John Smith.', speaker: 1 },
    { text: `My SSN is 123-45-6789 and card ${CARD}`, formattedText: 'My SSN is 123456789', speaker: 1 },
  ],
  realTimeMessage: { ucid: 'u', text: 'this is john smith calling about card 4111111111111111' },
  insightLines: [{ value: 'caller john smith gave ssn 123-45-6789' }],
  // Processing (issue 18) runs on the redacted record: its insight lines, key phrases and analytics hold no seeded value.
  insights: [{ id: 'name-given', expression: '"my name is" OR "my social is" OR "my card is"' }, { id: 'ssn', expression: 'ssn OR social', complianceViolation: true }],
  keyPhrases: [{ phrase: 'john smith account' }],
  entities: [{ text: 'john.smith@example.com', isPii: true }],
};
const SEEDED = ['john', 'smith', SSN_WORDS, '123-45-6789', '123456789', '4111', 'john.smith@example.com', 'example.com'];

for (const dialect of await dialects()) {
  describe(`post-call redaction leaks nothing (${dialect})`, () => {
    let svc: TestService;
    before(async () => {
      svc = await startTestService(dialect);
    });
    after(() => svc.close());

    test('no seeded value in the answer, the read-back or the stored row', async () => {
      const res = await svc.request({ method: 'POST', url: '/system/cache/post-call', payload: record });
      assert.equal(res.statusCode, 201, res.body);
      const answer = json(res);
      assert.ok(answer.entities.length >= 6, `entities listed: ${answer.entities.length}`);
      assert.ok(answer.entities.every((e: { redacted?: boolean }) => e.redacted === true));
      assert.match(answer.utterances[0].text, /\[PERSON\]/);
      assert.match(answer.processJob.transcript.results.map((r: { alternatives: { content: string }[] }) => r.alternatives[0].content).join(' '), /\[CREDIT_CARD_NUMBER\]/);
      const readBack = (await svc.request({ method: 'GET', url: '/cache/post-call/leak-1' })).body;
      const stored = JSON.stringify(await svc.services.store.database.db.selectFrom('conversations').selectAll().execute());
      for (const [name, body] of [['answer', res.body], ['read back', readBack], ['stored row', stored]] as const) {
        const lower = body.toLowerCase();
        for (const value of SEEDED) assert.ok(!lower.includes(value), `"${value}" survived in the ${name}`);
      }
      // Processing ran on the redacted record and produced its items (must-show 5: none holds a seeded value).
      assert.equal(answer.status, 'processed');
      assert.ok(answer.insightLines.some((l: { insightId?: string }) => l.insightId === 'name-given'), JSON.stringify(answer.insightLines));
      assert.ok(answer.keyPhrases.length > 1, 'key phrases were extracted');
      assert.ok(answer.analytics.insights.some((i: { id?: string }) => i.id === 'name-given'));
      // The words around the values stay.
      assert.match(answer.utterances[0].text, /My name is/);
      // An entity found in an utterance points at its mask in the redacted text (line, offset, length).
      const located = answer.entities.filter((e: { line?: number; offset?: number }) => e.line !== undefined && e.offset !== undefined);
      assert.ok(located.length >= 1, JSON.stringify(answer.entities));
      for (const e of located) assert.equal(answer.utterances[e.line].text.slice(e.offset, e.offset + e.length), e.text);
    });

    test('a record with only word-timed transcripts: the utterances, key phrases, entities, insight lines and analytics built from them hold no seeded value', async () => {
      const { utterances: _u, insightLines: _l, keyPhrases: _k, entities: _e, ...rest } = record;
      const res = await svc.request({
        method: 'POST',
        url: '/system/cache/post-call',
        payload: { ...rest, eventId: 'leak-2', campaign: { enableProfanityFiltering: true } },
      });
      assert.equal(res.statusCode, 201, res.body);
      const answer = json(res);
      assert.equal(answer.status, 'processed');
      assert.ok(answer.utterances.length >= 1 && answer.utterances.some((u: { text: string }) => /\[PERSON\]/.test(u.text)), JSON.stringify(answer.utterances));
      assert.ok(answer.insightLines.length >= 1);
      // Entities the core found point at their masks in the built utterances.
      const located = answer.entities.filter((e: { line?: number; redacted?: boolean }) => e.redacted && e.line !== undefined);
      assert.ok(located.length >= 1, JSON.stringify(answer.entities));
      for (const e of located) assert.equal(answer.utterances[e.line].text.slice(e.offset, e.offset + e.length), e.text);
      const stored = JSON.stringify(await svc.services.store.database.db.selectFrom('conversations').selectAll().where('event_id', '=', 'leak-2').execute());
      for (const [name, body] of [['answer', res.body], ['stored row', stored]] as const) {
        const lower = body.toLowerCase();
        for (const value of SEEDED) assert.ok(!lower.includes(value), `"${value}" survived in the ${name}`);
      }
    });

    test('without redaction asked for, the record is stored as sent', async () => {
      const res = await svc.request({ method: 'POST', url: '/system/cache/post-call', payload: { ...record, eventId: 'plain', redactionRequest: undefined } });
      assert.equal(res.statusCode, 201);
      assert.match(json(res).utterances[0].text, /John Smith/);
    });
  });
}
