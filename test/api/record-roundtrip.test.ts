// The full conversation event record (resource 1 with every field of resources 1-18 filled, at every depth)
// through POST /system/cache/post-call and back through both GET paths, on both stores: every field kept with
// its type, fields the spec does not name kept, credentials masked in every answer and encrypted at rest,
// wrong types deep inside refused with the exact path, and a second post of an eventId replacing the first.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { sharedSchemas } from '../../src/schema/registry.js';
import { EventRecord } from '../../src/schema/resources/eventRecord.js';
import {
  CREDENTIAL_FIELD_NAMES,
  FIXTURE_SECRETS,
  IDS,
  allFieldPaths,
  credentialsIn,
  fullEventRecord,
  isCredentialName,
  schemaAt,
  valuesAt,
  type SchemaNode,
} from '../fixtures/fullRecord.js';
import { dialects, json, startTestService, type TestService } from '../helpers/harness.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const eventRecordSchema = EventRecord as unknown as SchemaNode;
const FIELD_PATHS = allFieldPaths(eventRecordSchema);

/** Resources 2-18 by their registered names; each must sit whole somewhere inside resource 1. */
const NESTED_RESOURCES = [
  'Campaign',
  'VendorATranscript',
  'VendorBTranscript',
  'RealTimeMessage',
  'ProcessJob',
  'JobRequest',
  'TranscriptShape',
  'Insight',
  'RedactionType',
  'Utterance',
  'InsightLine',
  'KeyPhrase',
  'Entity',
  'ContentGroup',
  'SystemSettings',
  'Conversation',
  'Analytics',
] as const;

// --- expectations written here, independently of src/security/credentials.ts --------------------------

const mask = (value: string) => (value.length >= 12 ? `****${value.slice(-4)}` : '****');
const maskHeaderLine = (line: string) => {
  const colon = line.indexOf(':');
  return colon < 0 ? mask(line) : `${line.slice(0, colon)}: ${mask(line.slice(colon + 1).trim())}`;
};

/** The answer a record should get: the record as sent, every credential value masked. */
function masked(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(masked);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (isCredentialName(key) && typeof field === 'string') out[key] = mask(field);
    else if (key === 'auth_headers' && Array.isArray(field)) out[key] = field.map((l) => (typeof l === 'string' ? maskHeaderLine(l) : l));
    else out[key] = masked(field);
  }
  return out;
}

function atPointer(value: unknown, pointer: string): unknown {
  let current = value;
  for (const raw of pointer.split('/').slice(1)) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[token];
  }
  return current;
}

function setAtPointer(value: unknown, pointer: string, next: unknown): void {
  const tokens = pointer.split('/').slice(1);
  const last = tokens.pop()!;
  (atPointer(value, tokens.length ? `/${tokens.join('/')}` : '') as Record<string, unknown>)[last] = next;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** Why a value does not fill a declared field (undefined when it does). */
function notFilled(schema: SchemaNode, value: unknown): string | undefined {
  if (value === undefined) return 'is missing';
  if (value === null) return 'is null';
  if (typeof value === 'object' && value !== null && 'emptyArrayAt' in value) return 'is inside an empty array';
  switch (schema.type) {
    case 'string':
      if (typeof value !== 'string' || value === '') return `is ${JSON.stringify(value)}, not a non-empty string`;
      if (schema.format === 'uuid' && !UUID.test(value)) return `is ${value}, not a uuid`;
      if (schema.format === 'date-time' && (!DATE_TIME.test(value) || Number.isNaN(Date.parse(value)))) return `is ${value}, not a date-time`;
      return undefined;
    case 'integer':
      return Number.isInteger(value) ? undefined : `is ${JSON.stringify(value)}, not an integer`;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? undefined : `is ${JSON.stringify(value)}, not a number`;
    case 'boolean':
      return typeof value === 'boolean' ? undefined : `is ${JSON.stringify(value)}, not a boolean`;
    case 'object':
      return typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length > 0 ? undefined : 'is not a filled object';
    default:
      return undefined; // untyped ("nullable") field: any value but null
  }
}

/** Every declared field path that a record does not fill with a value of its type. */
function unfilledPaths(record: unknown, skip: readonly string[] = []): string[] {
  const problems: string[] = [];
  for (const path of FIELD_PATHS.filter((p) => !skip.includes(p))) {
    const schema = schemaAt(eventRecordSchema, path)!;
    for (const value of valuesAt(record, path)) {
      const why = notFilled(schema, value);
      if (why) {
        problems.push(`${path} ${why}`);
        break;
      }
    }
  }
  return problems;
}

/**
 * The fixture with text redaction switched off: these tests are about storing a record as sent (redaction of
 * records is tested in test/redact/post-call-leak.test.ts). Any kind named in `types` is redacted and an
 * unknown one is a 400, so the record names none; its project (sid) is published without redaction.
 */
function storedAsSent(record: Record<string, any>): Record<string, any> {
  record.campaign.enableTextRedaction = false;
  delete record.redactionRequest.types;
  delete record.processJob.request.types;
  return record;
}
/**
 * What post-call processing (issue 18) writes: the record's own items are kept and processing adds its own, so
 * "as sent" is compared with these left out, and status is `processed`.
 */
const PROCESSING_FIELDS = ['utterances', 'conversation', 'analytics', 'insightLines', 'keyPhrases', 'entities', 'insightsCreated', 'segmentsCreated', 'insights', 'status'];
function withoutProcessing(record: Record<string, any>): Record<string, any> {
  const copy = { ...record };
  for (const field of PROCESSING_FIELDS) delete copy[field];
  return copy;
}
/** The record's own items are the first of each processed list. */
function keepsOwnItems(answer: Record<string, any>, sent: Record<string, any>): void {
  for (const field of ['insightLines', 'keyPhrases'] as const) {
    if (sent[field]) assert.deepEqual(answer[field].slice(0, sent[field].length), sent[field], field);
  }
  if (sent.analytics?.insights) assert.deepEqual(answer.analytics.insights.slice(0, sent.analytics.insights.length), sent.analytics.insights, 'analytics.insights');
  assert.equal(answer.utterances.length, sent.utterances.length, 'the record\'s own utterances are its lines');
}
/** The fields storedAsSent leaves out. */
const NO_TYPES = ['redactionRequest.types[]', 'processJob.request.types[]'];
const UNREDACTED_PROJECT = { data: JSON.stringify({ sid: 'acme-support', scrubtext: false, scrubaudio: false }) };

/** The full record plus fields the spec does not name, at the top and deep inside, one of them a credential. */
const CUSTOM_SECRET = 'crm-api-live-customfield-7f2b9c41e0a3d5';
function recordWithCustomFields(): Record<string, any> {
  const record = storedAsSent(fullEventRecord());
  record.crmContext = { ticketId: 'INC-448213', tags: ['lost-card', 'vip'], score: 7.5, nested: { ok: true, none: null }, apiKey: CUSTOM_SECRET };
  record.processJob.vendorATranscript.utterances[0].myVendorField = { diarizationScore: 0.93, speakerLabel: 'spk_0' };
  record.campaign.x_routingProfile = 'cards-priority';
  record.conversation.customerTier = 'gold';
  record.contentGroups[0].contentItems[0].customWeight = 3;
  record.analytics.insights[0].vendorExtra = [1, 'two', { three: 3 }, null];
  record.processJob.transcript.results[0].alternatives[0].vendorScore = 0.42;
  return record;
}
const ALL_SECRETS = [...FIXTURE_SECRETS, CUSTOM_SECRET];

function assertNoSecret(text: string, where: string): void {
  for (const secret of ALL_SECRETS) assert.ok(!text.includes(secret), `${where} shows the secret ${secret}`);
}

/** Deep wrong types, each with the exact pointer and path the 400 must name. */
const WRONG_TYPES: { name: string; change: (r: Record<string, any>) => void; pointer: string; path: string }[] = [
  {
    name: 'a word event start given as a string',
    change: (r) => (r.processJob.vendorATranscript.utterances[0].events[0].start = '0.42'),
    pointer: '/processJob/vendorATranscript/utterances/0/events/0/start',
    path: 'processJob.vendorATranscript.utterances[0].events[0].start',
  },
  { name: 'campaign.active given as "true"', change: (r) => (r.campaign.active = 'true'), pointer: '/campaign/active', path: 'campaign.active' },
  { name: 'conversation.id that is not a uuid', change: (r) => (r.conversation.id = 'conv-4481'), pointer: '/conversation/id', path: 'conversation.id' },
  {
    name: 'analytics.call_start that is not a date-time',
    change: (r) => (r.analytics.call_start = '03/14/2024 15:02'),
    pointer: '/analytics/call_start',
    path: 'analytics.call_start',
  },
  { name: 'entities[0].offset given as 1.5', change: (r) => (r.entities[0].offset = 1.5), pointer: '/entities/0/offset', path: 'entities[0].offset' },
  {
    name: 'insights[0].insightGroupId that is not a uuid',
    change: (r) => (r.insights[0].insightGroupId = 'cards-group-1'),
    pointer: '/insights/0/insightGroupId',
    path: 'insights[0].insightGroupId',
  },
  {
    name: 'a redacted transcript confidence given as text',
    change: (r) => (r.processJob.transcriptRedacted.results[2].alternatives[0].confidence = 'high'),
    pointer: '/processJob/transcriptRedacted/results/2/alternatives/0/confidence',
    path: 'processJob.transcriptRedacted.results[2].alternatives[0].confidence',
  },
  {
    name: 'a content item type given as 2.5',
    change: (r) => (r.contentGroups[0].contentItems[1].itemType = 2.5),
    pointer: '/contentGroups/0/contentItems/1/itemType',
    path: 'contentGroups[0].contentItems[1].itemType',
  },
  {
    name: 'a credential given as a number',
    change: (r) => (r.campaign.appKey = 4242424242424242),
    pointer: '/campaign/appKey',
    path: 'campaign.appKey',
  },
];

describe('full event record fixture', () => {
  test('fills every declared field path of resources 1-18 with a value of its type', () => {
    assert.ok(FIELD_PATHS.length > 900, `the walk finds ${FIELD_PATHS.length} field paths`);
    for (const deep of [
      'processJob.vendorATranscript.utterances[].events[].start',
      'processJob.vendorBTranscript.chaninfo[].textinfo.overtalk.time[]',
      'processJob.transcriptRedacted.results[].alternatives[].content',
      'processJob.request.notification.auth_headers[]',
      'vendorATranscript.utterances[].sentimentex[][]',
      'contentGroups[].contentItems[].itemType',
      'redactionTypes[].rules[].redactAfter',
      'analytics.insights[].value',
      'job.jobId',
    ]) {
      assert.ok(FIELD_PATHS.includes(deep), `${deep} is among the declared paths`);
    }
    assert.deepEqual(unfilledPaths(fullEventRecord()), []);
  });

  test('resources 2-18 all sit whole inside resource 1, so the walk covers them', () => {
    const paths = new Set(FIELD_PATHS);
    for (const name of NESTED_RESOURCES) {
      const own = allFieldPaths(sharedSchemas[name] as unknown as SchemaNode);
      const prefixes = FIELD_PATHS.filter((p) => p.endsWith(`.${own[0]}`)).map((p) => p.slice(0, -own[0].length));
      const whole = prefixes.filter((prefix) => own.every((p) => paths.has(prefix + p)));
      assert.ok(whole.length > 0, `${name} (${own.length} fields) is nested whole in the event record`);
    }
  });

  test('is valid against the declared schema, and is a realistic call', () => {
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    const validate = ajv.compile(eventRecordSchema);
    const record = fullEventRecord();
    assert.ok(validate(record), ajv.errorsText(validate.errors));
    assert.deepEqual(fullEventRecord(), record, 'the fixture is deterministic');
    assert.equal(record.eventId, IDS.eventId);
    assert.ok(record.utterances.length >= 4 && record.utterances.every((u: { text: string }) => u.text.split(' ').length > 5));
    for (const utterance of record.processJob.vendorATranscript.utterances) {
      assert.ok(utterance.events.length > 5);
      for (const event of utterance.events) assert.ok(event.start >= utterance.start && event.end <= utterance.end && event.start < event.end);
    }
    const lines = record.utterances.map((u: { text: string }) => u.text);
    for (const entity of record.entities) assert.equal(lines[entity.line].slice(entity.offset, entity.offset + entity.length), entity.text);
  });

  test('every credential field holds a distinct secret of at least 16 characters', () => {
    assert.equal(new Set(FIXTURE_SECRETS).size, FIXTURE_SECRETS.length);
    for (const secret of FIXTURE_SECRETS) assert.ok(secret.length >= 16, secret);
    const credentialPaths = FIELD_PATHS.filter((p) => isCredentialName(p.split('.').pop()!));
    assert.ok(credentialPaths.length >= 12, credentialPaths.join(', '));
    const record = fullEventRecord();
    for (const path of credentialPaths) {
      for (const value of valuesAt(record, path)) assert.ok(FIXTURE_SECRETS.includes(value as string), `${path} holds a fixture secret`);
    }
    const found = credentialsIn(record);
    assert.equal(found.length, FIXTURE_SECRETS.length);
    assert.ok(found.some((c) => c.pointer === '/redactionRequest/notification/auth_headers/0'));
    assert.deepEqual(
      [...new Set(found.map((c) => c.pointer.split('/').filter((t) => !/^\d+$/.test(t)).pop()))].sort(),
      [...CREDENTIAL_FIELD_NAMES, 'auth_headers'].sort(),
      'every credential field name of the interface is exercised',
    );
  });
});

for (const dialect of await dialects()) {
  describe(`post-call record round trip (${dialect})`, () => {
    let svc: TestService;
    let sent: Record<string, any>;
    let answer: Record<string, any>;
    before(async () => {
      svc = await startTestService(dialect);
      const published = await svc.request({ method: 'POST', url: '/system/cache/v2/publish', payload: UNREDACTED_PROJECT });
      assert.equal(published.statusCode, 200, published.body);
    });
    after(() => svc.close());

    const post = (payload: unknown, url = '/system/cache/post-call') => svc.request({ method: 'POST', url, payload: payload as object });

    test('POST of the full record answers 201 with the record as sent, status received, credentials masked', async () => {
      sent = recordWithCustomFields();
      const res = await post(sent);
      assert.equal(res.statusCode, 201, res.body);
      assert.match(res.headers['content-type'] as string, /^application\/json/);
      answer = json(res);
      assert.equal(answer.eventId, IDS.eventId, 'eventId kept');
      assert.equal(answer.status, 'processed');
      assert.deepEqual(withoutProcessing(answer), withoutProcessing((masked(sent) as Record<string, any>)));
      keepsOwnItems(answer, (masked(sent) as Record<string, any>));

      const credentials = credentialsIn(sent);
      assert.equal(credentials.length, ALL_SECRETS.length);
      for (const credential of credentials) {
        const shown = atPointer(answer, credential.pointer) as string;
        if (credential.pointer.includes('/auth_headers/')) {
          const name = credential.value.slice(0, credential.value.indexOf(':'));
          const value = credential.value.slice(credential.value.indexOf(':') + 1).trim();
          assert.equal(shown, `${name}: ****${value.slice(-4)}`, credential.pointer);
        } else {
          assert.equal(shown, `****${credential.value.slice(-4)}`, credential.pointer);
        }
      }
      assertNoSecret(res.body, 'the POST answer');
      assert.ok(!res.body.includes('enc:v1:'), 'no sealed text in the answer');
      // Processing leaves null or empty what this call cannot measure (no over-talk, so no interruption; no pause of
      // 2 s; a party silent in a quarter; gender and emotion need the audio).
      const unmeasured = [
        'analytics.overtalk_average', 'analytics.gender', 'analytics.emotion', 'analytics.speakers[].sentiment_quarters[]',
        ...['speaker', 'interrupted', 'count', 'time', 'at[]'].map((f) => `analytics.interruptions[].${f}`),
        ...['start', 'end', 'duration'].map((f) => `analytics.non_talk[].${f}`),
      ];
      assert.deepEqual(unfilledPaths(answer, [...NO_TYPES, ...unmeasured]), [], 'the answer fills every declared field');
    });

    test('GET by eventId on both paths answers the same record', async () => {
      for (const url of [`/system/cache/post-call/${IDS.eventId}`, `/cache/post-call/${IDS.eventId}`]) {
        const res = await svc.request({ method: 'GET', url });
        assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
        assert.match(res.headers['content-type'] as string, /^application\/json/);
        assert.deepEqual(json(res), answer, url);
        assertNoSecret(res.body, url);
        assert.ok(!res.body.includes('enc:v1:'), `${url} shows no sealed text`);
      }
    });

    test('fields the spec does not name are kept, at the top and deep inside', async () => {
      const got = json(await svc.request({ method: 'GET', url: `/cache/post-call/${IDS.eventId}` }));
      assert.deepEqual(got.crmContext, { ticketId: 'INC-448213', tags: ['lost-card', 'vip'], score: 7.5, nested: { ok: true, none: null }, apiKey: mask(CUSTOM_SECRET) });
      assert.deepEqual(got.processJob.vendorATranscript.utterances[0].myVendorField, { diarizationScore: 0.93, speakerLabel: 'spk_0' });
      assert.equal(got.campaign.x_routingProfile, 'cards-priority');
      assert.equal(got.conversation.customerTier, 'gold');
      assert.equal(got.contentGroups[0].contentItems[0].customWeight, 3);
      assert.deepEqual(got.analytics.insights[0].vendorExtra, [1, 'two', { three: 3 }, null]);
      assert.equal(got.processJob.transcript.results[0].alternatives[0].vendorScore, 0.42);
    });

    test('the stored row holds every credential encrypted, none in clear, everything else as sent', async () => {
      const row = await svc.services.store.database.db
        .selectFrom('conversations')
        .select(['record', 'event_id', 'conversation_id', 'job_id', 'status'])
        .where('event_id', '=', IDS.eventId)
        .executeTakeFirstOrThrow();
      assert.equal(row.conversation_id, IDS.conversationId);
      assert.equal(row.job_id, IDS.jobId);
      assert.equal(row.status, 'processed');
      const text = typeof row.record === 'string' ? row.record : JSON.stringify(row.record);
      assertNoSecret(text, 'the stored row');
      const stored = JSON.parse(text);
      const box = svc.services.box;
      for (const credential of credentialsIn(sent)) {
        const value = atPointer(stored, credential.pointer);
        assert.equal(typeof value, 'string', credential.pointer);
        assert.ok(box.isSealed(value as string), `${credential.pointer} is stored sealed: ${String(value).slice(0, 20)}`);
        assert.equal(box.open(value as string), credential.value, `${credential.pointer} opens to the value sent`);
        setAtPointer(stored, credential.pointer, box.open(value as string));
      }
      assert.deepEqual(withoutProcessing(stored), withoutProcessing(sent), 'apart from the sealed credentials and what processing adds the row is the record as sent');

      const events = await svc.services.store.database.db.selectFrom('events').select(['record']).execute();
      assert.ok(events.length > 0);
      for (const event of events) assertNoSecret(String(event.record), 'the event log');
    });

    for (const wrong of WRONG_TYPES) {
      test(`400 naming the path: ${wrong.name}`, async () => {
        const record = fullEventRecord();
        record.eventId = `bad-${wrong.pointer.replace(/\//g, '.')}`;
        wrong.change(record);
        const res = await post(record);
        assert.equal(res.statusCode, 400, res.body);
        assert.match(res.headers['content-type'] as string, /^application\/problem\+json/);
        const problem = json(res);
        assert.equal(problem.status, 400);
        assert.equal(typeof problem.title, 'string');
        assert.equal(typeof problem.type, 'string');
        assert.deepEqual(
          problem.errors.map((e: { pointer: string; path: string }) => [e.pointer, e.path]),
          [[wrong.pointer, wrong.path]],
        );
        assert.equal(typeof problem.errors[0].message, 'string');
        assertNoSecret(res.body, 'the problem');
        const stored = await svc.request({ method: 'GET', url: `/system/cache/post-call/${encodeURIComponent(record.eventId)}` });
        assert.equal(stored.statusCode, 404, 'a refused record is not stored');
      });
    }

    test('several wrong fields in one body give one entry each (also on /cache/post-call)', async () => {
      const record = fullEventRecord();
      record.eventId = 'bad-many';
      for (const wrong of WRONG_TYPES) wrong.change(record);
      for (const url of ['/system/cache/post-call', '/cache/post-call']) {
        const res = await post(record, url);
        assert.equal(res.statusCode, 400, res.body);
        assert.match(res.headers['content-type'] as string, /^application\/problem\+json/);
        const errors = json(res).errors as { pointer: string; path: string }[];
        assert.deepEqual(
          errors.map((e) => [e.pointer, e.path]).sort(),
          WRONG_TYPES.map((w) => [w.pointer, w.path]).sort(),
          url,
        );
        assertNoSecret(res.body, 'the problem');
      }
    });

    test('posting the same eventId again answers 200 and replaces the record', async () => {
      const second = storedAsSent(fullEventRecord());
      second.campaign.name = 'Acme Bank - Card Services (Overflow)';
      second.segmentsCreated = 5;
      delete second.keyPhrases;
      const res = await post(second);
      assert.equal(res.statusCode, 200, res.body);
      const replaced = json(res);
      assert.deepEqual(withoutProcessing(replaced), withoutProcessing((masked(second) as Record<string, any>)));

      for (const url of [`/system/cache/post-call/${IDS.eventId}`, `/cache/post-call/${IDS.eventId}`]) {
        const got = json(await svc.request({ method: 'GET', url }));
        assert.deepEqual(got, replaced, url);
        assert.equal(got.crmContext, undefined, 'fields of the first record are gone');
        assert.ok(!JSON.stringify(got.keyPhrases ?? []).includes(JSON.stringify(sent.keyPhrases[0])), 'the first record\'s key phrases are gone');
        assert.equal(got.campaign.name, 'Acme Bank - Card Services (Overflow)');
      }

      const viaAlias = await post({ ...second, message: 'posted again through the alias' }, '/cache/post-call');
      assert.equal(viaAlias.statusCode, 200, viaAlias.body);
      assert.equal(json(await svc.request({ method: 'GET', url: `/system/cache/post-call/${IDS.eventId}` })).message, 'posted again through the alias');

      const rows = await svc.services.store.database.db
        .selectFrom('conversations')
        .select(['event_id'])
        .where('event_id', '=', IDS.eventId)
        .execute();
      assert.equal(rows.length, 1, 'one row per eventId');
    });

    test(
      'a credential-named field holding an array or an object is not answered or stored in clear',
      async () => {
        const record = { eventId: 'credential-shapes', crmContext: { token: ['tok-in-array-secret-5c1e9a7f'], apiKey: { value: 'apikey-in-object-secret-8d2b6f0a' } } };
        const res = await post(record);
        assert.equal(res.statusCode, 201, res.body);
        for (const secret of ['tok-in-array-secret-5c1e9a7f', 'apikey-in-object-secret-8d2b6f0a']) {
          assert.ok(!res.body.includes(secret), `the answer shows ${secret}`);
          const row = await svc.services.store.database.db
            .selectFrom('conversations')
            .select(['record'])
            .where('event_id', '=', 'credential-shapes')
            .executeTakeFirstOrThrow();
          assert.ok(!String(row.record).includes(secret), `the stored row shows ${secret}`);
        }
      },
    );
  });
}
