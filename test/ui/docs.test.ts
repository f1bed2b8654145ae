// The API browser at /docs, in a real headless Chromium: it renders every route group from /openapi.json,
// loads nothing from outside this machine, and "Try it out" calls the live service.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { type Browser, chromium } from 'playwright-core';
import { startTestService, type TestService } from '../helpers/harness.js';

const CHROMIUM = process.env.SCRUBLINE_CHROMIUM || '/usr/bin/chromium';
const hasBrowser = fs.existsSync(CHROMIUM);
if (!hasBrowser && process.env.SCRUBLINE_REQUIRE_BROWSER === '1') throw new Error(`Chromium is required but missing at ${CHROMIUM}`);

describe('API browser at /docs', { skip: !hasBrowser && `no Chromium at ${CHROMIUM}` }, () => {
  let svc: TestService;
  let browser: Browser;
  let base: string;
  before(async () => {
    svc = await startTestService('sqlite');
    base = await svc.app.listen({ port: 0, host: '127.0.0.1' });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  });
  after(async () => {
    await browser?.close();
    await svc?.close();
  });

  test('renders the routes and runs a call from the page', async () => {
    const page = await browser.newPage();
    const outside: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.protocol.startsWith('http') && url.hostname !== '127.0.0.1') outside.push(request.url());
    });
    await page.goto(`${base}/docs`);
    await page.waitForSelector('.opblock', { timeout: 120_000 });
    const text = await page.textContent('body');
    for (const path of ['/asr/params', '/asr/transcribe', '/system/cache/v2/publish', '/system/cache/post-call', '/cache/real-call', '/cache/list']) {
      assert.ok(text?.includes(path), `the page lists ${path}`);
    }

    const operation = page.locator('#operations-engine-getEngineParams');
    await operation.locator('.opblock-summary').click();
    await operation.locator('button.try-out__btn').click();
    await operation.locator('button.execute').click();
    const status = operation.locator('.live-responses-table tbody .response-col_status').first();
    await status.waitFor({ timeout: 120_000 });
    assert.equal((await status.textContent())?.trim(), '200');
    assert.match((await operation.locator('.live-responses-table .microlight').first().textContent()) ?? '', /uttmaxsilence/);
    assert.deepEqual(outside, [], 'nothing is fetched from outside this machine');
  });
});
