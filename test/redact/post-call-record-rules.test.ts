// A record carrying its own rules goes through the real service: a custom value (a content item), a PIN
// hidden by "my pin is" + redactAfter, and the words around them are gone from every field of the answer, the
// record read back and the stored row; an allow-listed company name survives the Person recognizer; inactive
// rules do nothing. A real-call message carried by a record gets the same rules.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { dialects, json, startTestService, type TestService } from '../helpers/harness.js';

const PIN_SPOKEN = 'four four seven one';
const spoken = `hi this is victoria bank my pin is ${PIN_SPOKEN} and bluebird is the code thanks`;
const written = 'Victoria Bank here. My PIN is 4471, and Bluebird is the code. Thanks';
const record = {
  eventId: 'custom-rules-1',
  conversationId: 'c-custom',
  redactionRequest: { types: ['Person'] },
  redactionTypes: [
    { name: 'pins', active: true, rules: [{ value: 'my pin is', type: 'Pin', redactAfter: 4, active: true }] },
    // Inactive: must not redact "thanks" anywhere.
    { name: 'off', active: false, rules: [{ value: 'thanks' }] },
    { name: 'also off', rules: [{ value: 'code', isDeleted: true }] },
  ],
  contentGroups: [
    {
      name: 'account words',
      contentItems: [
        { value: 'Bluebird', typeName: 'Codename' },
        { value: 'Victoria Bank', ignore: true },
        { value: 'hi', active: false },
      ],
    },
  ],
  vendorATranscript: {
    utterances: [{ metadata: { channel: 1 }, events: spoken.split(' ').map((word, i) => ({ word, start: i * 0.4, end: i * 0.4 + 0.35, confidence: 0.9 })) }],
    ctidata: { user_name: 'bluebird', call_type: 'inbound' },
  },
  vendorBTranscript: {
    utterances: [{ metadata: { channel: 0 }, events: spoken.split(' ').map((word, i) => ({ word, start: i, end: i + 0.5, confidence: 0.8 })) }],
  },
  processJob: {
    transcript: {
      results: spoken.split(' ').map((content, i) => ({ type: 'word', start_time: i, end_time: i + 0.5, channel: 'S1', alternatives: [{ content, confidence: 0.9 }] })),
    },
    realTimeMessage: { ucid: 'u1', text: written },
  },
  utterances: [{ text: written, formattedText: written, speaker: 1 }, { text: spoken, speaker: 0 }],
  realTimeMessage: { ucid: 'u1', text: spoken },
  insightLines: [{ value: written, responseValue: spoken }],
  keyPhrases: [{ phrase: 'bluebird launch' }, { phrase: 'so my pin is 4471' }],
  entities: [{ text: 'Bluebird', isPii: true }],
  analytics: { insights: [{ id: 'i1', phrase: written, response_phrase: spoken }] },
};
/** The PIN in both forms, the custom value, and the words between them that redactAfter takes. */
const GONE = ['4471', PIN_SPOKEN, 'bluebird', 'my pin is', 'pin is'];

for (const dialect of await dialects()) {
  describe(`a record's own rules through post-call (${dialect})`, () => {
    let svc: TestService;
    before(async () => {
      svc = await startTestService(dialect);
    });
    after(() => svc.close());

    test('custom value, PIN and the words after "my pin is" are gone from every field and the stored row', async () => {
      const res = await svc.request({ method: 'POST', url: '/system/cache/post-call', payload: record });
      assert.equal(res.statusCode, 201, res.body);
      const answer = json(res);
      const readBack = (await svc.request({ method: 'GET', url: '/cache/post-call/custom-rules-1' })).body;
      const stored = JSON.stringify(await svc.services.store.database.db.selectFrom('conversations').selectAll().execute());
      for (const [name, body] of [['answer', res.body], ['read back', readBack], ['stored row', stored]] as const) {
        const lower = body.toLowerCase();
        for (const value of GONE) assert.ok(!lower.includes(value), `"${value}" survived in the ${name}`);
      }
      // Written: "My PIN is 4471, and Bluebird" — the 4 words after the phrase ("4471," "and" "Bluebird" "is").
      assert.equal(answer.utterances[0].text, 'Victoria Bank here. [PIN] the code. Thanks');
      assert.equal(answer.utterances[1].text, 'hi this is victoria bank [PIN] and [CODENAME] is the code thanks');
      // Every text-bearing field was redacted the same way, and the allow-listed name and inactive rules' words stay.
      const texts = [
        answer.utterances[0].formattedText,
        answer.realTimeMessage.text,
        answer.processJob.realTimeMessage.text,
        answer.insightLines[0].value,
        answer.insightLines[0].responseValue,
        answer.analytics.insights[0].phrase,
        answer.analytics.insights[0].response_phrase,
        answer.vendorATranscript.utterances[0].events.map((e: { word: string }) => e.word).join(' '),
        answer.vendorBTranscript.utterances[0].events.map((e: { word: string }) => e.word).join(' '),
        answer.processJob.transcript.results.map((r: { alternatives: { content: string }[] }) => r.alternatives[0].content).join(' '),
      ];
      for (const t of texts) {
        assert.match(t, /\[PIN\]/, t);
        assert.match(t, /victoria bank/i, t);
        assert.match(t, /thanks/i, t);
        assert.match(t, /^hi|^Victoria/, t);
      }
      // The record's own key phrases come first; processing (issue 18) adds those it finds in the redacted lines.
      assert.deepEqual(answer.keyPhrases.slice(0, 2).map((k: { phrase: string }) => k.phrase), ['[CODENAME] launch', 'so [PIN]']);
      assert.equal(answer.entities[0].text, '[CODENAME]');
      assert.equal(answer.entities[0].redacted, true);
      assert.equal(answer.vendorATranscript.ctidata.user_name, '[CODENAME]');
      // The redacted spans keep their time: the PIN's event spans "my" to "one".
      const pin = answer.vendorATranscript.utterances[0].events.find((e: { word: string }) => e.word === '[PIN]');
      assert.equal(pin.start, 5 * 0.4);
      assert.equal(pin.end, 11 * 0.4 + 0.35);
      // Findings are listed as entities, by their masks only, with the kind's label.
      const found = answer.entities.slice(1).map((e: { text: string }) => e.text);
      assert.ok(found.includes('[PIN]') && found.includes('[CODENAME]'), JSON.stringify(found));
      assert.ok(!found.includes('[PERSON]'), 'the allow-listed name was not listed as a Person');
      // The rules' own values are masked too; the allow-list value and inactive rules stay as sent.
      assert.equal(answer.redactionTypes[0].rules[0].value, '[PIN]');
      assert.equal(answer.contentGroups[0].contentItems[0].value, '[CODENAME]');
      assert.equal(answer.contentGroups[0].contentItems[1].value, 'Victoria Bank');
      assert.equal(answer.redactionTypes[1].rules[0].value, 'thanks');
      assert.equal(answer.maskValues, true);
    });

    test('the record rules alone ask for redaction; without them the record is stored as sent', async () => {
      const alone = { ...record, eventId: 'custom-rules-2', redactionRequest: undefined };
      const res = json(await svc.request({ method: 'POST', url: '/system/cache/post-call', payload: alone }));
      assert.equal(res.utterances[1].text, 'hi this is victoria bank [PIN] and [CODENAME] is the code thanks');
      const plain = { ...alone, eventId: 'custom-rules-3', redactionTypes: undefined, contentGroups: undefined };
      const res2 = json(await svc.request({ method: 'POST', url: '/system/cache/post-call', payload: plain }));
      assert.equal(res2.utterances[1].text, spoken);
    });

    test('a regular expression that cannot be used refuses the record, naming the rule; nothing is stored', async () => {
      for (const [value, why] of [
        ['/(a)\\1/', /not a valid regular expression for RE2.*backreferences/],
        ['/(unclosed/', /not a valid regular expression/],
      ] as const) {
        const bad = { ...record, eventId: `bad-regex-${value.length}`, redactionTypes: [{ name: 'x', rules: [{ value: 'fine' }, { value }] }] };
        const res = await svc.request({ method: 'POST', url: '/system/cache/post-call', payload: bad });
        assert.equal(res.statusCode, 400, res.body);
        const problem = json(res);
        assert.equal(problem.errors[0].pointer, '/redactionTypes/0/rules/1/value');
        assert.match(problem.errors[0].message, why);
        assert.equal((await svc.request({ method: 'GET', url: `/cache/post-call/${bad.eventId}` })).statusCode, 404);
      }
      const live = await svc.request({ method: 'POST', url: '/cache/real-call', payload: { redactionTypes: [{ rules: [{ value: '(?=x)y', typeId: 'regex' }] }], realTimeMessage: { engagementId: 'eng-bad', text: 'hi' } } });
      assert.equal(live.statusCode, 400, live.body);
      assert.equal(json(live).errors[0].pointer, '/redactionTypes/0/rules/0/value');
    });

    test('a real-call message carried by a record gets the record rules before it is stored', async () => {
      const res = await svc.request({
        method: 'POST',
        url: '/cache/real-call',
        payload: { redactionTypes: record.redactionTypes, contentGroups: record.contentGroups, realTimeMessage: { engagementId: 'eng-custom', text: spoken, isFinal: true } },
      });
      assert.equal(res.statusCode < 300, true, res.body);
      assert.equal(json(res).realTimeMessage.text, 'hi this is victoria bank [PIN] and [CODENAME] is the code thanks');
      const live = (await svc.request({ method: 'GET', url: '/cache/live/eng-custom' })).body.toLowerCase();
      for (const value of GONE) assert.ok(!live.includes(value), `"${value}" survived in the live conversation`);
    });
  });
}
