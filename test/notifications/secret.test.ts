// The signing secret: the configured one when given (checked), else one made once in the data directory.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { generateSecret, loadWebhookSecret, secretKey, WEBHOOK_SECRET_FILE, WebhookSecretError } from '../../src/jobs/notifications/index.js';

describe('webhook secret', () => {
  test('made once in the data directory, owner-only, and the same on every load', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scrubline-whsec-'));
    try {
      const first = loadWebhookSecret(path.join(dir, 'data'));
      assert.match(first, /^whsec_[A-Za-z0-9+/]+=*$/);
      assert.equal(secretKey(first).length, 32);
      assert.equal(loadWebhookSecret(path.join(dir, 'data')), first);
      const file = path.join(dir, 'data', WEBHOOK_SECRET_FILE);
      assert.equal(fs.statSync(file).mode & 0o777, 0o600);
      assert.deepEqual(fs.readdirSync(path.join(dir, 'data')), [WEBHOOK_SECRET_FILE], 'no temporary file left');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a configured secret wins and is checked', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scrubline-whsec-'));
    try {
      const configured = generateSecret();
      assert.equal(loadWebhookSecret(dir, configured), configured);
      assert.deepEqual(fs.readdirSync(dir), [], 'nothing written');
      assert.throws(() => loadWebhookSecret(dir, 'hunter2-not-a-whsec'), (e: Error) => e instanceof WebhookSecretError && !e.message.includes('hunter2'));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
