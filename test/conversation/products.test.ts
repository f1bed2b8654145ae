// Products among a call's entities (issue 18): the project's catalogue found in ASR text however it is split into
// words, cased or accented; masks never matched nor joined across; through post-call, listed with line, offset,
// speaker, category 3 and the product's place in the catalogue, beside the personal data the core redacted
// (category 1); a catalogue entry that is not an object with a name is refused at publish.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { products } from '../../src/conversation/products.js';
import type { Conversation } from '../../src/conversation/types.js';
import { dialects, json, startTestService, type TestService } from '../helpers/harness.js';

const CATALOGUE = [
  { name: 'Gold Card', aliases: ['gold credit card'] },
  { name: 'iPhone 15', aliases: ['i phone fifteen'] },
  { name: 'Crème Brûlée Plan' },
  { name: 'Visa' },
];

function conversationOf(...lines: string[]): Conversation {
  return {
    source: 'utterances',
    utterances: lines.map((text, line) => ({ line, channel: line % 2, speaker: line % 2, start: line, end: line + 1, text, words: [] })),
  } as unknown as Conversation;
}

describe('products in a conversation', () => {
  test('names and aliases, however split, cased or accented; longest name first; masks are stops', () => {
    const found = products(
      conversationOf(
        'i want to upgrade my gold credit card please',
        'is that for the i phone fifteen or the iphone15',
        'we moved you to the creme brulee plan',
        'my visa [PERSON] gold card is fine',
        'gold [PERSON] card and visa **** gold card',
        'nothing to see here',
      ),
      CATALOGUE,
    );
    const brief = found.map((e) => [e.line, e.text, e.subCategory, e.speaker]);
    assert.deepEqual(brief, [
      [0, 'gold credit card', 1, 0],
      [1, 'i phone fifteen', 2, 1],
      [1, 'iphone15', 2, 1],
      [2, 'creme brulee plan', 3, 0],
      [3, 'visa', 4, 1],
      [3, 'gold card', 1, 1],
      [4, 'visa', 4, 0],
      [4, 'gold card', 1, 0],
    ]);
    for (const e of found) {
      assert.equal(e.category, 3);
      assert.equal(e.engine, 'catalogue');
      assert.equal(e.redacted, false);
    }
    // Offsets point at what was said.
    const line1 = 'is that for the i phone fifteen or the iphone15';
    assert.equal(line1.slice(found[1].offset!, found[1].offset! + found[1].length!), 'i phone fifteen');
    assert.deepEqual(products(conversationOf('gold card'), []), [], 'no catalogue, no products');
    // A name in a mask is not a product: "[VISA]" is a mask.
    assert.deepEqual(products(conversationOf('my card is [VISA]'), CATALOGUE), []);
  });
});

for (const dialect of await dialects()) {
  describe(`products through post-call (${dialect})`, () => {
    let svc: TestService;
    before(async () => {
      svc = await startTestService(dialect);
    });
    after(() => svc.close());

    test("a project's catalogue is listed among the call's entities beside what redaction found", async () => {
      const published = await svc.request({
        method: 'POST',
        url: '/system/cache/v2/publish',
        payload: { data: JSON.stringify({ sid: 'shop', scrubtext: true, rules: [{ name: 'Person', active: true, mask_type: 'Placeholder', setting: '[PERSON]' }], products: CATALOGUE }) },
      });
      assert.equal(published.statusCode, 200, published.body);
      const words = (channel: number, text: string, at: number) => ({
        metadata: { channel },
        start: at,
        end: at + 3,
        events: text.split(' ').map((word, i) => ({ word, start: at + i * 0.3, end: at + i * 0.3 + 0.25, confidence: 0.9 })),
      });
      const res = await svc.request({
        method: 'POST',
        url: '/system/cache/post-call',
        payload: {
          eventId: 'shop-call',
          redactionRequest: { sid: 'shop' },
          campaign: { agentLocation: 'left' },
          vendorATranscript: {
            nchannels: 2,
            utterances: [
              words(0, 'thank you for calling how can i help', 0),
              words(1, 'my name is john smith and i want the gold credit card', 3),
              words(0, 'sure the gold card or the i phone fifteen plan', 6),
            ],
          },
        },
      });
      assert.equal(res.statusCode, 201, res.body);
      const r = json(res);
      assert.equal(r.status, 'processed');
      const productEntities = r.entities.filter((e: { category?: number }) => e.category === 3);
      assert.deepEqual(
        productEntities.map((e: { line: number; text: string; subCategory: number; speaker: number }) => [e.line, e.text, e.subCategory, e.speaker]),
        [
          [1, 'gold credit card', 1, 1],
          [2, 'gold card', 1, 0],
          [2, 'i phone fifteen', 2, 0],
        ],
      );
      const pii = r.entities.filter((e: { category?: number }) => e.category === 1);
      assert.ok(pii.length >= 1 && pii.every((e: { redacted: boolean }) => e.redacted), 'the name is an entity of the core, redacted');
      assert.ok(!JSON.stringify(r).includes('john smith'), 'the name is gone everywhere');
      // Read back: the same entities are stored.
      const stored = json(await svc.request({ method: 'GET', url: '/system/cache/post-call/shop-call' }));
      assert.deepEqual(stored.entities, r.entities);
    });

    test('a catalogue entry without a name, or with an unknown field, is refused at publish', async () => {
      for (const products of [[{ aliases: ['x'] }], [{ name: 'Gold', colour: 'gold' }], ['Gold Card']]) {
        const res = await svc.request({ method: 'POST', url: '/system/cache/v2/publish', payload: { data: JSON.stringify({ sid: 'shop-bad', products }) } });
        assert.equal(res.statusCode, 400, res.body);
        assert.match(JSON.stringify(json(res).errors), /\/data\/products\/0/);
      }
    });
  });
}
