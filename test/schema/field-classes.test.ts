// Every string field of every resource schema declares what redaction does with it (schema/fieldClass.ts):
// a field added without a class fails here, so nothing new can slip past the record walk's classes unseen.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import Type, { type TSchema } from 'typebox';
import { isCredentialField } from '../../src/schema/credentials.js';
import { declaredClass } from '../../src/schema/fieldClass.js';
import { str } from '../../src/schema/fields.js';
import { sharedSchemas } from '../../src/schema/registry.js';

type Node = TSchema & Record<string, unknown>;

/** Every string schema under `schema`, with its path and the class it declares. */
function strings(schema: Node, path: string): { path: string; name: string; schema: Node }[] {
  const out: { path: string; name: string; schema: Node }[] = [];
  const visit = (node: Node, at: string, name: string) => {
    const types = Array.isArray(node.type) ? node.type : [node.type];
    if (types.includes('string')) out.push({ path: at, name, schema: node });
    for (const [key, child] of Object.entries((node.properties as Record<string, Node> | undefined) ?? {})) visit(child, `${at}.${key}`, key);
    if (typeof node.additionalProperties === 'object') visit(node.additionalProperties as unknown as Node, `${at}.*`, name);
    if (node.items && typeof node.items === 'object') visit(node.items as unknown as Node, `${at}[]`, name);
    for (const key of ['anyOf', 'oneOf', 'allOf'] as const) for (const branch of (node[key] as Node[] | undefined) ?? []) visit(branch, at, name);
  };
  visit(schema, path, path);
  return out;
}

// Problem is the service's own error answer, never a stored record.
const resources = Object.entries(sharedSchemas).filter(([name]) => name !== 'Problem');

describe('field classes', () => {
  test('every string field of every resource has a class', () => {
    const missing = resources.flatMap(([name, schema]) => strings(schema as unknown as unknown as Node, name).filter((s) => !declaredClass(s.schema)).map((s) => s.path));
    assert.deepEqual(missing, [], `string fields without a class: ${missing.join(', ')}`);
  });

  test('the walk finds string fields (a schema walker that saw none would pass the test above)', () => {
    const found = strings(sharedSchemas.EventRecord as unknown as Node, 'EventRecord').map((s) => s.path);
    for (const path of ['EventRecord.json', 'EventRecord.utterances[].text', 'EventRecord.processJob.transcript.results[].alternatives[].content', 'EventRecord.vendorATranscript.ctidata.call_number']) {
      assert.ok(found.includes(path), path);
    }
    assert.ok(found.length > 300, `${found.length} string fields`);
  });

  test('a field added with a plain string fails', () => {
    const widened = Type.Object({ ...sharedSchemas.Utterance.properties, note: Type.Optional(str()) });
    assert.deepEqual(strings(widened as unknown as unknown as Node, 'Utterance').filter((s) => !declaredClass(s.schema)).map((s) => s.path), ['Utterance.note']);
  });

  test('the fields the issue names are classed as it says', () => {
    const classes = new Map(resources.flatMap(([name, schema]) => strings(schema as unknown as Node, name).map((s) => [s.path, declaredClass(s.schema)] as const)));
    const expect = (cls: string, paths: string[]) => {
      for (const path of paths) assert.equal(classes.get(path), cls, path);
    };
    expect('content', [
      'EventRecord.json', 'EventRecord.details', 'EventRecord.message', 'EventRecord.processJob.transcriptOutput',
      'EventRecord.analytics.insights[].response_summary', 'EventRecord.insights[].response', 'EventRecord.conversation.name',
      'EventRecord.realTimeMessage.prompt', 'EventRecord.realTimeMessage.alert', 'EventRecord.realTimeMessage.insights',
      'EventRecord.realTimeMessage.text', 'EventRecord.utterances[].text', 'EventRecord.utterances[].formattedText',
      'EventRecord.vendorATranscript.utterances[].events[].word', 'EventRecord.vendorATranscript.ctidata.full_name',
    ]);
    expect('phone', [
      'EventRecord.vendorATranscript.ctidata.call_number', 'EventRecord.conversation.ani', 'EventRecord.conversation.dnis',
      'EventRecord.analytics.ani', 'EventRecord.analytics.caller', 'EventRecord.realTimeMessage.fromNumber',
      'EventRecord.realTimeMessage.toNumber', 'EventRecord.realTimeMessage.clientNumber',
    ]);
    expect('identifier', ['EventRecord.eventId', 'EventRecord.conversationId', 'EventRecord.createdAt', 'EventRecord.utterances[].conversationId']);
  });

  test('credential fields are classed credential, and only they and header lines are', () => {
    for (const [name, schema] of resources) {
      for (const s of strings(schema as unknown as Node, name)) {
        if (isCredentialField(s.name)) assert.equal(declaredClass(s.schema), 'credential', s.path);
        else if (declaredClass(s.schema) === 'credential') assert.match(s.path, /notification\.auth_headers\[\]$/);
      }
    }
  });
});
