// The credential walk: what is stored is sealed and opens back to what was sent; what is answered is masked.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { maskCredentials, maskHeaderLine, maskValue, openCredentials, protectCredentials } from '../../src/security/credentials.js';
import { createSecretBox } from '../../src/security/secretBox.js';

const box = createSecretBox(Buffer.from('unit-test-key'));
const record = {
  campaign: { name: 'Acme', appKey: 'ak-0123456789-abcd', appSecret: 'short' },
  processJob: { engine_token: 'tok-9876543210-wxyz', request: { notification: { auth_headers: ['Authorization: Bearer abcdefghijkl-1234', 'X-Plain'] } } },
  custom: [{ token: ['in', 'an', 'array'] }, { apiKey: { nested: 'object-secret' } }, { secretKey: 123456789012345 }],
  accessUrl: null,
  untouched: { text: 'hello', n: 1 },
};

describe('credentials', () => {
  test('sealed values open back to what was sent, whatever their shape', () => {
    const { sealed } = protectCredentials(record, box);
    const text = JSON.stringify(sealed);
    for (const secret of ['ak-0123456789-abcd', 'short', 'tok-9876543210-wxyz', 'abcdefghijkl-1234', 'object-secret', '123456789012345', '"array"']) {
      assert.ok(!text.includes(secret), `sealed form holds ${secret}`);
    }
    assert.deepEqual(openCredentials(sealed, box), record);
    assert.deepEqual(protectCredentials(sealed, box).sealed, sealed, 'sealing twice changes nothing');
  });

  test('masked forms show at most the last four characters of long strings', () => {
    const { sealed, masked } = protectCredentials(record, box);
    assert.deepEqual(maskCredentials(sealed, box), masked, 'masking the stored form gives the answered form');
    const m = masked as typeof record;
    assert.equal(m.campaign.appKey, '****abcd');
    assert.equal(m.campaign.appSecret, '****');
    assert.equal(m.campaign.name, 'Acme');
    assert.deepEqual(m.processJob.request.notification.auth_headers, ['Authorization: ****1234', '****']);
    assert.deepEqual(m.custom, [{ token: '****' }, { apiKey: '****' }, { secretKey: '****' }]);
    assert.equal(m.accessUrl, null);
    assert.deepEqual(m.untouched, record.untouched);
  });

  test('mask helpers', () => {
    assert.equal(maskValue('123456789012'), '****9012');
    assert.equal(maskValue('12345678901'), '****');
    assert.equal(maskHeaderLine('X-Key:   abcdefghijklmnop'), 'X-Key: ****mnop');
  });

  test('a value sealed with another key is never shown', () => {
    const other = createSecretBox(Buffer.from('another-key'));
    const { sealed } = protectCredentials({ appKey: 'ak-0123456789-abcd' }, other);
    assert.deepEqual(maskCredentials(sealed, box), { appKey: '****' });
  });
});
