// Standard Webhooks signing: the published test vector, verification of what we sign, and refusals.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  generateSecret,
  secretKey,
  sign,
  signatureHeaders,
  verifySignature,
  WebhookSecretError,
} from '../../src/jobs/notifications/signing.js';

// The example of the Standard Webhooks specification (and of the Svix libraries' tests).
const SPEC = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};

describe('webhook signing', () => {
  test('matches the Standard Webhooks test vector', () => {
    assert.equal(sign(SPEC.secret, SPEC.id, SPEC.timestamp, SPEC.body), SPEC.signature);
    const headers = { 'webhook-id': SPEC.id, 'webhook-timestamp': String(SPEC.timestamp), 'webhook-signature': SPEC.signature };
    assert.ok(verifySignature(SPEC.secret, headers, SPEC.body, { now: new Date(SPEC.timestamp * 1000 + 10_000) }));
  });

  test('headers made now verify; any change to id, timestamp, body or secret does not', () => {
    const secret = generateSecret();
    const body = JSON.stringify({ eventId: 'e1', message: 'ünïcode ✓' });
    const headers = signatureHeaders(secret, 'msg_abc', body);
    assert.match(headers['webhook-signature'], /^v1,[A-Za-z0-9+/]+=*$/);
    assert.match(headers['webhook-timestamp'], /^\d{10}$/);
    assert.ok(verifySignature(secret, headers, body));
    assert.ok(verifySignature(secret, headers, Buffer.from(body)), 'a raw body buffer verifies too');
    assert.ok(verifySignature(secret, new Headers(headers), body), 'a Headers object');
    assert.ok(!verifySignature(secret, headers, body + ' '));
    assert.ok(!verifySignature(secret, { ...headers, 'webhook-id': 'msg_other' }, body));
    assert.ok(!verifySignature(secret, { ...headers, 'webhook-timestamp': String(Number(headers['webhook-timestamp']) + 1) }, body));
    assert.ok(!verifySignature(generateSecret(), headers, body));
    assert.ok(!verifySignature(secret, { 'webhook-id': 'msg_abc' }, body), 'missing headers');
  });

  test('several signatures (key rotation): one valid v1 is enough; other versions are ignored', () => {
    const secret = generateSecret();
    const h = signatureHeaders(secret, 'msg_1', '{}');
    const other = signatureHeaders(generateSecret(), 'msg_1', '{}')['webhook-signature'];
    assert.ok(verifySignature(secret, { ...h, 'webhook-signature': `${other} ${h['webhook-signature']}` }, '{}'));
    assert.ok(!verifySignature(secret, { ...h, 'webhook-signature': h['webhook-signature'].replace('v1,', 'v2,') }, '{}'));
  });

  test('timestamps outside the tolerance are refused (replays)', () => {
    const secret = generateSecret();
    const then = new Date(Date.now() - 10 * 60_000);
    const headers = signatureHeaders(secret, 'msg_old', '{}', then);
    assert.ok(!verifySignature(secret, headers, '{}'));
    assert.ok(verifySignature(secret, headers, '{}', { toleranceSeconds: 3600 }));
  });

  test('secrets must be whsec_<base64> of enough bytes; errors never quote them', () => {
    assert.equal(secretKey(SPEC.secret).length, 24);
    assert.equal(secretKey(generateSecret()).length, 32);
    for (const bad of ['MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'whsec_', 'whsec_not base64!!', 'whsec_c2hvcnQ=']) {
      assert.throws(() => secretKey(bad), (error: Error) => error instanceof WebhookSecretError && !error.message.includes(bad.slice(6) || '\0'));
    }
  });
});
