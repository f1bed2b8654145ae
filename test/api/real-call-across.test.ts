// Real-call messages redacted across their conversation (issue 36 item 5) and digit look-alikes (security review):
// a number split over several messages of one conversation is masked in every answer, every kept message, the
// joined post-call record (which says under what policy: kinds, never values), the events and the logs.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { dialects, json, startTestService, type TestService } from '../helpers/harness.js';

const KINDS = ['CreditCardNumber', 'USSocialSecurityNumber'];

for (const dialect of await dialects()) {
  describe(`real-call across messages (${dialect})`, () => {
    let svc: TestService;
    const logLines: string[] = [];
    before(async () => {
      svc = await startTestService(dialect, { logLines });
    });
    after(() => svc.close());

    const send = (message: object) => svc.request({ method: 'POST', url: '/cache/real-call', payload: { redactionRequest: { types: KINDS }, realTimeMessage: message } });

    /** Every place the conversation's words can be found, as text. */
    async function everywhere(key: string, answers: string[]): Promise<Record<string, string>> {
      const db = svc.services.store.database.db;
      return {
        answers: answers.join('\n'),
        'stored messages': JSON.stringify(await db.selectFrom('live_messages').selectAll().where('conversation_key', '=', key).execute()),
        'GET live': (await svc.request({ method: 'GET', url: `/cache/live/${key}` })).body,
        'joined record': (await svc.request({ method: 'GET', url: `/cache/post-call/live:${key}` })).body,
        'stored record': JSON.stringify(await db.selectFrom('conversations').selectAll().where('event_id', '=', `live:${key}`).execute()),
        events: JSON.stringify(await db.selectFrom('events').selectAll().where('subject', 'in', [key, `live:${key}`]).execute()),
        deliveries: JSON.stringify(await db.selectFrom('deliveries').selectAll().execute()),
        logs: logLines.join('\n'),
      };
    }

    /** Each value, not as part of a longer number (a log line's time or a duration may hold the same digits). */
    function assertGone(places: Record<string, string>, values: string[]): void {
      for (const [where, text] of Object.entries(places)) {
        for (const value of values) {
          const alone = new RegExp(`(?<![0-9.:])${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![0-9.])`, 'u');
          assert.ok(!alone.test(text), `${value} is in ${where}: ${text.slice(0, 2000)}`);
        }
      }
    }

    async function conversation(key: string, texts: string[], speaker = 'caller'): Promise<string[]> {
      const answers: string[] = [];
      for (const [i, text] of texts.entries()) {
        const res = await send({ engagementId: key, speaker, text, isFinal: true, ...(i === texts.length - 1 && { type: 'end' }) });
        assert.equal(res.statusCode, 200, res.body);
        answers.push(res.body);
      }
      return answers;
    }

    test('a card number read over three messages is masked in every answer, kept message, the joined record, events and logs', async () => {
      const answers = await conversation('split-card', ['my card number is 4532 0151', '1283 0366', '8741', 'thanks that is all']);
      assertGone(await everywhere('split-card', answers), ['4532', '0151', '1283', '0366', '8741']);
      // Each answer keeps its shape; the words around the number are kept.
      const first = JSON.parse(answers[0]).realTimeMessage;
      assert.match(first.text, /^my card number is \[/);
      assert.equal(JSON.parse(answers[3]).realTimeMessage.text, 'thanks that is all');
    });

    test('the joined post-call record carries the conversation\'s redaction (kinds, never values)', async () => {
      const record = json(await svc.request({ method: 'GET', url: '/cache/post-call/live:split-card' }));
      assert.notEqual(record.redaction, null);
      assert.deepEqual([...record.redaction.policy.kinds].sort(), [...KINDS].sort());
    });

    test('a kept message is redacted again when a later one completes the number it began', async () => {
      // The first message asked for nothing (answered as sent: it cannot be recalled); the second asks for cards
      // and completes the number: the kept first message is rewritten, the joined record redacted for cards.
      const bare = await svc.request({ method: 'POST', url: '/cache/real-call', payload: { engagementId: 'reach-back', speaker: 'caller', text: 'my card is 4532 0151 1283', isFinal: true } });
      assert.equal(bare.statusCode, 200, bare.body);
      const answers = await conversation('reach-back', ['0366 8741 yes']);
      const places = await everywhere('reach-back', answers);
      assertGone(places, ['4532', '0151', '1283', '0366', '8741']);
      const live = json(await svc.request({ method: 'GET', url: '/cache/live/reach-back' }));
      assert.match(live.messages[0].message.text, /^my card is \[CREDIT_CARD_NUMBER\]/);
    });

    test('a social security number split over two messages of a speaker', async () => {
      const answers = await conversation('split-ssn', ['my social is 536', '22 8741 ok']);
      assertGone(await everywhere('split-ssn', answers), ['536', '8741']);
    });

    test('a partial (isFinal false) shows no digit group of the number forming', async () => {
      const res = await send({ engagementId: 'partial', speaker: 'caller', text: 'my card is 4532 0151 and 1283', isFinal: false });
      assert.equal(res.statusCode, 200, res.body);
      const final = await conversation('partial', ['my card is 4532 0151 and 1283 0366 8741']);
      assertGone(await everywhere('partial', [res.body, ...final]), ['4532', '0151', '1283', '0366', '8741']);
    });

    test('digit look-alikes in a message are masked as the number they stand for', async () => {
      const answers = await conversation('lookalike', ['my card is 4532\u041E1511283\u041E366 ok', 'and my ssn is S36-22-8741 ok', 'or 5362287I4I ok', 'card 4532O151l283O366 ok']);
      assertGone(await everywhere('lookalike', answers), ['4532\u041E151', '1283\u041E366', 'S36-22', '22-8741', '5362287I4I', '4532O151', 'l283O366']);
    });

    test('ordinary words stay as they were', async () => {
      const answers = await conversation('ordinary', ['is COVID-19 still a thing in B2B sales', 'we talked about the 1990s ok']);
      assert.equal(JSON.parse(answers[0]).realTimeMessage.text, 'is COVID-19 still a thing in B2B sales');
      assert.equal(JSON.parse(answers[1]).realTimeMessage.text, 'we talked about the 1990s ok');
    });
  });
}

describe('post-call: digit look-alikes (sqlite)', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService('sqlite');
  });
  after(() => svc.close());

  test('a post-call record with look-alike numbers is stored masked', async () => {
    const res = await svc.request({
      method: 'POST',
      url: '/cache/post-call',
      payload: { eventId: 'look-1', redactionRequest: { types: KINDS }, utterances: [{ speaker: 1, start: 0, end: 3, text: 'card 4532O151l283O366 and ssn 5362287I4I' }] },
    });
    assert.ok(res.statusCode < 300, res.body);
    const stored = JSON.stringify(await svc.services.store.database.db.selectFrom('conversations').selectAll().execute());
    for (const value of ['4532O151', 'l283O366', '5362287I4I']) {
      assert.ok(!res.body.includes(value), `${value} answered`);
      assert.ok(!stored.includes(value), `${value} stored`);
    }
  });
});
