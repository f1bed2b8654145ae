// Fail-closed record walking, through POST /system/cache/post-call: a record seeded with a card number, an SSN,
// a name, a phone number and an email in every field that used to stay verbatim (and in undeclared fields,
// nested) keeps none of them — in the answer, the record read back, or the stored row — while its identifiers
// stay as sent. And a value spoken across two utterances of one speaker is masked in both.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { dialects, json, startTestService, type TestService } from '../helpers/harness.js';

const SENTENCE = 'my name is John Smith, ssn 123-45-6789, card 4111 1111 1111 1111, phone 555-867-5309, email john.smith@example.com';
const SEEDED = ['john', 'smith', '123-45-6789', '123456789', '4111', '867-5309', '5309', 'john.smith@example.com', 'example.com'];
const TYPES = ['Person', 'USSocialSecurityNumber', 'CreditCardNumber', 'PhoneNumber', 'Email'];

const IDS = {
  eventId: 'walk-1',
  conversationId: 'conv-walk-1',
  createdAt: '2026-11-24T10:00:00.000Z',
  timestamp: '2026-11-24T10:05:00.000Z',
  conversation: '3f2b8c1e-6d7a-4e21-9b0c-2a5d8e7f1c34',
};

const seededRecord = {
  eventId: IDS.eventId,
  conversationId: IDS.conversationId,
  createdAt: IDS.createdAt,
  timestamp: IDS.timestamp,
  type: 'conversation',
  redactionRequest: { types: TYPES },
  json: JSON.stringify({ caller: { name: 'John Smith', ssn: '123-45-6789', card: '4111111111111111', phone: '555-867-5309', email: 'john.smith@example.com' }, note: SENTENCE }),
  details: SENTENCE,
  message: SENTENCE,
  custom0: SENTENCE,
  processJob: { jobId: 'job-walk-1', transcriptOutput: SENTENCE, transcriptInput: SENTENCE, fileName: `call ${SENTENCE}.wav` },
  analytics: {
    id: 'an-1',
    ani: SENTENCE,
    caller: SENTENCE,
    insights: [
      { id: 'i-1', value: { said: SENTENCE, list: [SENTENCE] }, response_summary: SENTENCE },
      { id: 'i-2', value: SENTENCE },
    ],
  },
  insights: [{ id: 'ins-1', response: SENTENCE, prompt: SENTENCE }],
  vendorATranscript: { ctidata: { call_number: SENTENCE, call_type: 'inbound', call_session_id: 'sess-77' } },
  conversation: { id: IDS.conversation, ani: SENTENCE, name: SENTENCE, dnis: SENTENCE, startTime: IDS.createdAt, customerNote: SENTENCE },
  realTimeMessage: { ucid: 'ucid-walk', fromNumber: SENTENCE, toNumber: '555-867-5309', prompt: SENTENCE, alert: SENTENCE, insights: SENTENCE, text: SENTENCE },
  // Fields the interface does not name, at any depth, in arrays of arrays.
  crmNotes: { agent: { notes: [{ text: SENTENCE }, [SENTENCE, 42, true]] }, deeper: [[[{ memo: SENTENCE }]]], cardOnFile: 4111111111111111 },
};

/** Fields whose whole value is phone-bearing metadata: masked whole. */
const PHONE_FIELDS = (r: any) => [r.analytics.ani, r.analytics.caller, r.vendorATranscript.ctidata.call_number, r.conversation.ani, r.conversation.dnis, r.realTimeMessage.fromNumber, r.realTimeMessage.toNumber];

const words = (text: string, start: number, channel: number) =>
  text.split(' ').map((word, i) => ({ word, start: start + i * 0.4, end: start + i * 0.4 + 0.3, confidence: 0.9 }));

// Each value is spoken across two utterances of one speaker, with the other speaker between them; the
// vendor utterances are listed out of time order (their times give the order).
const crossRecord = {
  eventId: 'walk-cross',
  conversationId: 'conv-walk-cross',
  redactionRequest: { types: ['USSocialSecurityNumber', 'CreditCardNumber'] },
  vendorATranscript: {
    utterances: [
      { start: 20, metadata: { channel: 1 }, events: words('five six seven eight nine thanks', 20, 1) },
      { start: 0, metadata: { channel: 1 }, events: words('my card is four one one one', 0, 1) },
      { start: 4, metadata: { channel: 2 }, events: words('go on', 4, 2) },
      { start: 6, metadata: { channel: 1 }, events: words('one one one one one one one one one one one one', 6, 1) },
      { start: 12, metadata: { channel: 2 }, events: words('and your social', 12, 2) },
      { start: 15, metadata: { channel: 1 }, events: words('it is one two three four', 15, 1) },
    ],
  },
  utterances: [
    { speaker: 1, start: 0, text: 'My card is 4111 1111', formattedText: 'My card is 4111 1111' },
    { speaker: 2, start: 3, text: 'Go on.' },
    { speaker: 1, start: 5, text: '1111 1111 thanks. My social is one two three four', formattedText: '1111 1111 thanks.' },
    { speaker: 2, start: 8, text: 'Yes?' },
    { speaker: 1, start: 9, text: 'five six seven eight nine' },
  ],
  processJob: {
    transcript: {
      results: 'my card is four one one one . one one one one one one one one one one one one . thanks'.split(' ').map((content, i) => ({
        type: content === '.' ? 'punctuation' : 'word',
        ...(content === '.' && { is_eos: true }),
        start_time: i,
        end_time: i + 0.5,
        channel: 'channel_1',
        alternatives: [{ content, confidence: 0.9 }],
      })),
    },
  },
};

type Events = { word: string }[];
const said = (events: Events) => events.map((e) => e.word).join(' ');

for (const dialect of await dialects()) {
  describe(`record walk: every field of the record is redacted by its class (${dialect})`, () => {
    let svc: TestService;
    before(async () => {
      svc = await startTestService(dialect);
    });
    after(() => svc.close());

    const post = async (record: object) => {
      const res = await svc.request({ method: 'POST', url: '/system/cache/post-call', payload: record });
      assert.equal(res.statusCode, 201, res.body);
      return res;
    };
    const outputs = async (res: { body: string }, eventId: string) => {
      const readBack = await svc.request({ method: 'GET', url: `/cache/post-call/${eventId}` });
      assert.equal(readBack.statusCode, 200, readBack.body);
      const rows = await svc.services.store.database.db.selectFrom('conversations').selectAll().where('event_id', '=', eventId).execute();
      assert.equal(rows.length, 1);
      return [['answer', res.body], ['read back', readBack.body], ['stored row', JSON.stringify(rows)]] as const;
    };

    test('no seeded value survives in any field; identifiers stay as sent', async () => {
      const res = await post(seededRecord);
      for (const [name, body] of await outputs(res, IDS.eventId)) {
        const lower = body.toLowerCase();
        for (const value of SEEDED) {
          const at = lower.indexOf(value);
          assert.ok(at < 0, `"${value}" survived in the ${name}: ...${body.slice(Math.max(0, at - 80), at + 80)}...`);
        }
      }
      const answer = json(res);
      assert.equal(answer.eventId, IDS.eventId);
      assert.equal(answer.conversationId, IDS.conversationId);
      assert.equal(answer.createdAt, IDS.createdAt);
      assert.equal(answer.timestamp, IDS.timestamp);
      assert.equal(answer.conversation.id, IDS.conversation);
      assert.equal(answer.conversation.startTime, IDS.createdAt);
      assert.equal(answer.processJob.jobId, 'job-walk-1');
      assert.equal(answer.realTimeMessage.ucid, 'ucid-walk');
      assert.deepEqual(answer.vendorATranscript.ctidata, { call_number: '[PHONE_NUMBER]', call_type: 'inbound', call_session_id: 'sess-77' });
      for (const value of PHONE_FIELDS(answer)) assert.equal(value, '[PHONE_NUMBER]');
      // Content keeps its words around the masks; numbers and booleans of undeclared data are left.
      assert.equal(answer.details, 'my name is [PERSON], ssn [US_SOCIAL_SECURITY_NUMBER], card [CREDIT_CARD_NUMBER], phone [PHONE_NUMBER], email [EMAIL]');
      assert.deepEqual(answer.crmNotes.agent.notes[1].slice(1), [42, true]);
      assert.equal(answer.crmNotes.deeper[0][0][0].memo, answer.details);
      assert.equal(answer.crmNotes.cardOnFile, '[CREDIT_CARD_NUMBER]');
      // JSON text stays JSON, each of its values masked.
      assert.deepEqual(JSON.parse(answer.json).caller, {
        name: '[PERSON]',
        ssn: '[US_SOCIAL_SECURITY_NUMBER]',
        card: '[CREDIT_CARD_NUMBER]',
        phone: '[PHONE_NUMBER]',
        email: '[EMAIL]',
      });
      assert.equal(answer.redactionRequest.types.join(), TYPES.join());
    });

    test('without PhoneNumber, phone fields are searched like content', async () => {
      const record = { ...seededRecord, eventId: 'walk-2', redactionRequest: { types: ['Person', 'USSocialSecurityNumber'] } };
      const answer = json(await post(record));
      // Searched like content: the name and the SSN are found, and with USSocialSecurityNumber on every run of 9+
      // digits is masked as one (the digit safety net), the card and phone numbers included.
      assert.equal(answer.conversation.ani, 'my name is [PERSON], ssn [US_SOCIAL_SECURITY_NUMBER], card [US_SOCIAL_SECURITY_NUMBER], phone [US_SOCIAL_SECURITY_NUMBER], email john.smith@example.com');
      assert.equal(answer.realTimeMessage.toNumber, '[US_SOCIAL_SECURITY_NUMBER]');
    });

    test('a record nested too deeply to walk is refused with a problem, and nothing is stored', async () => {
      let deep: unknown = SENTENCE;
      for (let i = 0; i < 100; i++) deep = { d: deep };
      const res = await svc.request({ method: 'POST', url: '/system/cache/post-call', payload: { eventId: 'walk-deep', redactionRequest: { types: TYPES }, extra: deep } });
      assert.equal(res.statusCode, 400, res.body);
      assert.match(String(res.headers['content-type']), /application\/problem\+json/);
      assert.ok(!res.body.includes('5309'));
      assert.equal((await svc.request({ method: 'GET', url: '/cache/post-call/walk-deep' })).statusCode, 404);
    });

    test('a value spoken across two utterances is masked in both', async () => {
      const res = await post(crossRecord);
      const answer = json(res);
      const [part2, part1, agent1, middle, agent2, ssnStart] = answer.vendorATranscript.utterances.map((u: { events: Events }) => said(u.events));
      assert.equal(part1, 'my card is [CREDIT_CARD_NUMBER]');
      assert.equal(middle, '[CREDIT_CARD_NUMBER]');
      assert.equal(ssnStart, 'it is [US_SOCIAL_SECURITY_NUMBER]');
      assert.equal(part2, '[US_SOCIAL_SECURITY_NUMBER] thanks');
      assert.deepEqual([agent1, agent2], ['go on', 'and your social']);
      // A mask keeps the times of the words it replaces, in its own utterance.
      const masked = answer.vendorATranscript.utterances[0].events[0];
      const nine = crossRecord.vendorATranscript.utterances[0].events[4];
      assert.deepEqual([masked.start, masked.end], [20, nine.end]);

      assert.deepEqual(
        answer.utterances.map((u: { text: string }) => u.text),
        ['My card is [CREDIT_CARD_NUMBER]', 'Go on.', '[CREDIT_CARD_NUMBER] thanks. My social is [US_SOCIAL_SECURITY_NUMBER]', 'Yes?', '[US_SOCIAL_SECURITY_NUMBER]'],
      );
      assert.deepEqual(answer.utterances.slice(0, 3).map((u: { formattedText?: string }) => u.formattedText), ['My card is [CREDIT_CARD_NUMBER]', undefined, '[CREDIT_CARD_NUMBER] thanks.']);
      // The value is counted once, where it starts, and its entity points at its mask there.
      const inText = answer.entities.filter((e: { line?: number; offset?: number }) => e.offset !== undefined && e.line !== undefined);
      assert.equal(inText.length, 2, JSON.stringify(answer.entities));
      for (const e of inText) assert.equal(answer.utterances[e.line].text.slice(e.offset, e.offset + e.length), e.text);

      const contents = answer.processJob.transcript.results.map((r: { alternatives: { content: string }[] }) => r.alternatives[0].content);
      // The mask stands for the words on both sides of the line end (punctuation results are not words: kept).
      assert.deepEqual(contents, ['my', 'card', 'is', '[CREDIT_CARD_NUMBER]', '.', '.', 'thanks']);
      for (const [name, body] of await outputs(res, 'walk-cross')) {
        for (const value of ['4111', 'four one one one', 'one one one one', 'five six seven', 'one two three four']) {
          assert.ok(!body.toLowerCase().includes(value), `"${value}" survived in the ${name}`);
        }
      }
    });
  });
}
