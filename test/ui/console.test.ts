// The console at /console, in a real headless Chromium against a real service (SQLite, the bundled engine): sign in
// with a key; upload a recording with a spoken card number and scrubaudio and watch it finish; the call shows the
// masks highlighted while the digits are nowhere in the page, neither in its text nor in any response it fetched; the
// player loads the redacted audio; a read key gets no publish form and no keys view; a rule edited in the projects view
// publishes a new version that the next job runs with; an admin makes a key in the keys view, sees it once and revokes
// it; the open console's first key closes it. axe-core finds no serious or critical violation on any view, and every
// view's screenshot is taken; with SCRUBLINE_UPDATE_SCREENSHOTS=1 they are written to docs/console (the README shows
// them), otherwise to a temporary folder so a test run leaves the checkout as it was.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { hasFestivalVoice, hasTool, speakFestival, stereo, tempDir } from '../helpers/audio.js';
import { DIGIT_LIKE } from '../helpers/calls.js';
import { axeViolations, CHROMIUM, CHROMIUM_ARGS, ensureConsoleBuilt } from '../helpers/console.js';
import { json, startTestService, type TestService } from '../helpers/harness.js';
import { multipart } from '../helpers/multipart.js';
import { until } from '../helpers/poll.js';
import { required } from '../helpers/require.js';

const SHOTS =
  process.env.SCRUBLINE_UPDATE_SCREENSHOTS === '1'
    ? path.resolve(import.meta.dirname, '../../docs/console')
    : path.join(os.tmpdir(), `scrubline-console-shots-${process.pid}`);
const canRun = fs.existsSync(CHROMIUM) && hasTool('ffmpeg') && hasFestivalVoice() && fs.existsSync('/usr/share/pocketsphinx/model/en-us/en-us');
if (!fs.existsSync(CHROMIUM) && process.env.SCRUBLINE_REQUIRE_BROWSER === '1') throw new Error(`Chromium is required but missing at ${CHROMIUM}`);

// A Luhn-valid test card number read in groups (as test/jobs/audio-redaction.test.ts speaks it), and an SSN.
const SPOKEN =
  'hello my name is john smith. my card number is four five three two, zero one five one, one two eight three, zero three six six. ' +
  'and my social security number is one two three four five six seven eight nine. thank you.';
const CARD_GROUPS = ['4532', '0151', '1283', '0366'];

/** Where a spoken number would show: three digit words in a row, or a group of the card as digits (not inside an id). */
function leaks(text: string): string[] {
  const found: string[] = [];
  const words = text.toLowerCase().split(/[^a-z]+/).filter(Boolean);
  for (let i = 0; i + 2 < words.length; i++) {
    if (DIGIT_LIKE.has(words[i]) && DIGIT_LIKE.has(words[i + 1]) && DIGIT_LIKE.has(words[i + 2])) found.push(words.slice(i, i + 3).join(' '));
  }
  for (const group of CARD_GROUPS) if (new RegExp(`(?<![0-9a-f-])${group}(?![0-9a-f])`, 'i').test(text)) found.push(group);
  return found;
}

async function assertAccessible(page: Page, view: string) {
  const serious = (await axeViolations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(serious, [], `${view}: ${serious.map((v) => `${v.id} (${v.help}) at ${JSON.stringify(v.nodes.slice(0, 3))}`).join('; ')}`);
}

async function shot(page: Page, name: string) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

describe('the console', { skip: required(!canRun && `needs Chromium at ${CHROMIUM}, ffmpeg, festival with the US HTS voice and PocketSphinx`) }, () => {
  let svc: TestService;
  let browser: Browser;
  let base: string;
  let dir: string;
  let keys: { admin: string; submit: string; read: string };
  let admin: BrowserContext;
  let page: Page;
  const cspViolations: string[] = [];
  const outside: string[] = [];

  async function signedIn(key: string): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const p = await context.newPage();
    p.on('console', (m) => /Content Security Policy/i.test(m.text()) && cspViolations.push(m.text()));
    p.on('request', (r) => {
      const url = new URL(r.url());
      if (url.protocol.startsWith('http') && url.hostname !== '127.0.0.1') outside.push(r.url());
    });
    await p.goto(`${base}/console/`);
    await p.fill('#apikey', key);
    await p.click('button[type=submit]');
    await p.waitForSelector('#jobs-title');
    return { context, page: p };
  }

  before(async () => {
    ensureConsoleBuilt();
    svc = await startTestService('sqlite');
    base = await svc.app.listen({ port: 0, host: '127.0.0.1' });
    const make = async (scope: 'admin' | 'submit' | 'read') => (await svc.services.store.apiKeys.create(`console ${scope}`, scope)).key;
    keys = { admin: await make('admin'), submit: await make('submit'), read: await make('read') };
    dir = tempDir();
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  });
  after(async () => {
    await browser?.close();
    await svc?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  test('/ redirects to the console, served with a content security policy', async () => {
    const root = await svc.request({ method: 'GET', url: '/' });
    assert.equal(root.statusCode, 302);
    assert.equal(root.headers.location, '/console/');
    const index = await svc.request({ method: 'GET', url: '/console/' });
    assert.equal(index.statusCode, 200);
    assert.match(String(index.headers['content-security-policy']), /script-src 'self'(;|$)/);
    assert.doesNotMatch(index.body, /<script>(?!<\/script>)|<script [^>]*>[^<]+<\/script>/, 'no inline script');
    // The pages are public; the data is not: without a key the session call is refused once keys exist.
    assert.equal((await svc.request({ method: 'GET', url: '/console/session' })).statusCode, 401);
  });

  test('signs in with an admin key: the jobs view', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const p = await context.newPage();
    await p.goto(`${base}/console/`);
    await p.waitForSelector('#apikey');
    await assertAccessible(p, 'sign-in');
    await shot(p, 'sign-in');
    await p.fill('#apikey', 'not-a-key');
    await p.click('button[type=submit]');
    await p.waitForSelector('.error[role=alert]');
    assert.match((await p.textContent('.error[role=alert]')) ?? '', /unknown or revoked/);
    await context.close();

    ({ context: admin, page } = await signedIn(keys.admin));
    assert.match((await page.textContent('.who')) ?? '', /admin/);
    assert.equal(await page.locator('#upload-files').count(), 1, 'an admin key may upload');
    // The key stays in the tab: sessionStorage, never localStorage or a cookie.
    assert.equal(await page.evaluate(() => sessionStorage.getItem('scrubline.apiKey')), keys.admin);
    assert.equal(await page.evaluate(() => localStorage.length + document.cookie.length), 0);
  });

  let jobId: string;
  test('uploads a spoken card number with scrubaudio, watches it finish; the call masks it, and the digits are nowhere', async () => {
    const wav = speakFestival(SPOKEN, path.join(dir, 'card-call.wav'));
    const bodies: Promise<string>[] = [];
    let redactedAudio = 0;
    page.on('response', (r) => {
      const type = r.headers()['content-type'] ?? '';
      if (/\/audio\?redacted=true$/.test(r.url()) && r.status() === 200) redactedAudio++;
      if (/json|text|html|javascript/.test(type)) bodies.push(r.text().catch(() => ''));
    });

    await page.setInputFiles('#upload-files', wav);
    await page.check('#upload-scrubaudio');
    await page.click('#upload-send');
    const row = page.locator('tr[data-job]', { hasText: 'card-call.wav' });
    await row.waitFor();
    jobId = (await row.getAttribute('data-job'))!;
    // Live: the row turns completed without a reload.
    await page.waitForSelector(`tr[data-job="${jobId}"][data-status=completed]`, { timeout: 600_000 });
    await assertAccessible(page, 'jobs');
    await shot(page, 'jobs');

    await row.locator('a').click();
    await page.waitForSelector('article[data-status=completed] mark.redacted');
    await page.waitForSelector('.player[data-state=ready]', { timeout: 120_000 });
    assert.equal(await page.getAttribute('.player', 'data-src'), `/asr/jobs/${jobId}/audio?redacted=true`);
    assert.ok(redactedAudio >= 1, 'the player fetched the redacted recording');
    const kinds = await page.locator('mark.redacted').evaluateAll((marks) => marks.map((m) => m.getAttribute('data-kind')));
    assert.ok(kinds.includes('CreditCardNumber'), `the card number is highlighted: ${kinds.join(', ')}`);
    // Hovering shows kind, rule and time; never the value.
    const title = (await page.locator('mark.redacted[data-kind=CreditCardNumber]').first().getAttribute('title')) ?? '';
    assert.match(title, /^CreditCardNumber · Placeholder.* · \d+:\d\d\.\d–\d+:\d\d\.\d$/);
    assert.equal(await page.locator('.player .wave').count(), 1);

    await assertAccessible(page, 'call');
    await shot(page, 'call');
    const text = (await page.textContent('body')) ?? '';
    assert.deepEqual(leaks(text), [], 'no spoken digits in the page');
    const all = await Promise.all(bodies);
    assert.ok(all.some((b) => b.includes(jobId)), 'the job was fetched');
    for (const body of all) assert.deepEqual(leaks(body), [], 'no spoken digits in any response');
  });

  test('uploads several recordings at once; a stereo call has a lane per channel in the transcript and the player', async () => {
    const left = speakFestival('thank you for calling, how can i help you today', path.join(dir, 'left.wav'));
    const right = speakFestival('hello, i have a question about my bill', path.join(dir, 'right.wav'));
    const both = stereo(left, right, path.join(dir, 'stereo-call.wav'));
    const mono = speakFestival('good morning', path.join(dir, 'mono-call.wav'));
    await page.click('a[href="#/jobs"]');
    await page.setInputFiles('#upload-files', [both, mono]);
    await page.click('#upload-send');
    for (const name of ['stereo-call.wav', 'mono-call.wav']) {
      await page.locator('tr[data-job][data-status=completed]', { hasText: name }).waitFor({ timeout: 600_000 });
    }
    assert.equal(await page.locator('.progress progress').count(), 2, 'a progress bar per recording');
    await page.locator('tr[data-job]', { hasText: 'stereo-call.wav' }).locator('a').click();
    await page.waitForSelector('.turn[data-channel="0"]');
    await page.waitForSelector('.turn[data-channel="1"]');
    await page.waitForSelector('.player[data-state=ready]', { timeout: 120_000 });
    assert.match((await page.textContent('.player')) ?? '', /Lanes: Agent \(top\), Caller \(bottom\)/);
    assert.deepEqual(await page.locator('.turn .speaker').evaluateAll((s) => [...new Set(s.map((e) => e.textContent))].sort()), ['Agent', 'Caller']);
    assert.match((await page.textContent('#player-title')) ?? '', /audio redaction was not asked for/);
    await assertAccessible(page, 'stereo call');
    await shot(page, 'call-stereo');
  });

  test('a call analysed with insights shows its figures, who talked when, sentiment over the call, and insight lines that seek', async () => {
    const published = await svc.request({
      method: 'POST',
      url: '/system/cache/v2/publish',
      headers: { authorization: `Bearer ${keys.admin}` },
      payload: { data: JSON.stringify({ sid: 'console-insights', insights: [{ id: 'anything-said', name: 'Anything said', expression: '*' }] }) },
    });
    assert.equal(published.statusCode, 200, published.body);
    const call = path.join(dir, 'stereo-call.wav');
    const form = multipart({ sid: 'console-insights', analytics: 'true', insights: 'anything-said' }, [{ name: 'audio', filename: 'analysed-call.wav', content: fs.readFileSync(call) }]);
    const submitted = await svc.request({ method: 'POST', url: '/asr/transcribe', headers: { ...form.headers, authorization: `Bearer ${keys.admin}` }, payload: form.payload });
    assert.ok(submitted.statusCode === 200 || submitted.statusCode === 202, submitted.body);
    const id = json(submitted).jobId as string;
    await page.goto(`${base}/console/#/jobs/${id}`);
    await page.waitForSelector('article[data-status=completed]', { timeout: 600_000 });
    await page.waitForSelector('#analytics-title');
    const job = json(await svc.request({ method: 'GET', url: `/asr/jobs/${id}`, headers: { authorization: `Bearer ${keys.admin}` } }));
    const figure = async (name: string) => (await page.textContent(`dd[data-figure="${name}"]`))?.trim();
    // The panel shows the API's own figures (resource 18), not figures of its own making.
    const clock = (s: number) => `${Math.floor(s / 60)}:${(s - Math.floor(s / 60) * 60).toFixed(1).padStart(4, '0')}`;
    assert.ok(job.analytics.talk_time_agent > 0 && job.analytics.talk_time_caller > 0, JSON.stringify(job.analytics));
    assert.equal(await figure('duration'), clock(job.analytics.total_duration));
    assert.match((await figure('talk-agent')) ?? '', new RegExp(`^${clock(job.analytics.talk_time_agent).replace('.', '\\.')} `));
    assert.match((await figure('talk-caller')) ?? '', new RegExp(`^${clock(job.analytics.talk_time_caller).replace('.', '\\.')} `));
    assert.match((await figure('overtalk')) ?? '', new RegExp(`^${job.analytics.overtalk_count} times`));
    // Both sides on the timeline; the two voices speak at once from the start, so over-talk is drawn too.
    assert.ok((await page.locator('.timeline [data-type=agent]').count()) > 0, 'agent talk on the timeline');
    assert.ok((await page.locator('.timeline [data-type=caller]').count()) > 0, 'caller talk on the timeline');
    assert.equal(job.analytics.overtalk_count > 0, (await page.locator('.timeline [data-type=overtalk]').count()) > 0);
    const withSentiment = job.utterances.filter((u: { sentiment?: number }) => typeof u.sentiment === 'number').length;
    assert.ok(withSentiment > 0);
    assert.equal(await page.locator('.sentiment-track [data-polarity]').count(), withSentiment, 'a sentiment mark per utterance');
    // Insight lines, named by their insight, each seeking the player to its time.
    assert.ok(job.insightLines.length > 0, JSON.stringify(job.insightLines));
    const lines = page.locator('ul.insights li[data-insight="anything-said"]');
    assert.equal(await lines.count(), job.insightLines.length);
    assert.match((await lines.first().textContent()) ?? '', /Anything said/);
    await page.waitForSelector('.player[data-state=ready]', { timeout: 120_000 });
    const lastAt = job.insightLines[job.insightLines.length - 1].timestamp as number;
    assert.ok(lastAt > 0, 'the last insight line is past the start');
    await lines.last().locator('button').click();
    await page.waitForFunction((want) => document.querySelector('.player .time')?.textContent?.startsWith(want), clock(lastAt));
    await assertAccessible(page, 'call analytics');
    await page.locator('#analytics-title').scrollIntoViewIfNeeded();
    await shot(page, 'call-analytics');
  });

  test('a read key sees jobs and projects but no upload, no publish form and no keys view', async () => {
    await svc.request({
      method: 'POST',
      url: '/system/cache/v2/publish',
      headers: { authorization: `Bearer ${keys.admin}` },
      payload: { data: JSON.stringify({ sid: 'console-demo', scrubtext: true, rules: [{ name: 'CreditCardNumber', mask_type: 'Placeholder' }] }) },
    });
    const { context, page: p } = await signedIn(keys.read);
    assert.match((await p.textContent('.who')) ?? '', /read/);
    assert.equal(await p.locator('#upload-files').count(), 0, 'no upload for a read key');
    await p.click('a[href="#/projects"]');
    await p.waitForSelector('tr[data-version="1"]');
    assert.equal(await p.locator('#publish-form').count(), 0, 'no publish form for a read key');
    assert.match((await p.textContent('.project')) ?? '', /Publishing needs an admin key/);
    // No keys view in the navigation, and its address answers with what it needs, calling nothing.
    assert.equal(await p.locator('a[href="#/keys"]').count(), 0, 'no keys view for a read key');
    const keyCalls: string[] = [];
    p.on('request', (r) => r.url().includes('/system/keys') && keyCalls.push(r.url()));
    await p.evaluate(() => void (location.hash = '#/keys'));
    await p.waitForSelector('#keys-title');
    assert.match((await p.textContent('main')) ?? '', /Managing keys needs an admin key/);
    assert.equal(await p.locator('#key-form').count(), 0);
    assert.deepEqual(keyCalls, []);
    await context.close();
  });

  test('a rule edited in the projects view publishes a new version, which the next job runs with', async () => {
    await page.click('a[href="#/projects"]');
    await page.locator('.project-list button', { hasText: 'console-demo' }).click();
    await page.waitForSelector('#publish-form');
    await page.selectOption('select[name="rule-0-mask"]', 'MaskCharacter');
    await page.fill('#preview-text', 'my card number is 4532 0151 1283 0366 thanks');
    await page.click('#preview');
    await page.waitForSelector('.preview mark.redacted');
    const preview = (await page.textContent('.preview')) ?? '';
    assert.deepEqual(leaks(preview), [], `the preview masks the card: ${preview}`);
    assert.match(preview, /\*{4}/, 'masked with the draft rule (MaskCharacter)');

    // The API's validation speaks in the form: a setting longer than a rule may have is refused, nothing published.
    await page.fill('input[name="rule-0-setting"]', 'x'.repeat(5000));
    await page.click('#publish');
    await page.waitForSelector('#publish-form .error[role=alert]');
    assert.equal(json(await svc.request({ method: 'GET', url: '/system/projects/console-demo/versions', headers: { authorization: `Bearer ${keys.read}` } })).versions.length, 1);
    await page.fill('input[name="rule-0-setting"]', '');

    await page.click('#publish');
    await page.waitForSelector('tr[data-version="2"]');
    assert.match((await page.textContent('.diff pre')) ?? '', /\+\s+"mask_type": "MaskCharacter"/);
    await assertAccessible(page, 'projects');
    await shot(page, 'projects');

    const submitted = await svc.request({
      method: 'POST',
      url: '/asr/transcribe?wait=120',
      headers: { authorization: `Bearer ${keys.submit}` },
      payload: { text: 'Caller: my card number is 4532 0151 1283 0366 thanks', sid: 'console-demo' },
    });
    assert.equal(submitted.statusCode, 200, submitted.body);
    const job = json(submitted);
    assert.equal(job.redaction.policy.version, 2, 'the next job runs with the new version');
    const text = (await svc.request({ method: 'GET', url: `/asr/jobs/${job.jobId}/transcript?format=text`, headers: { authorization: `Bearer ${keys.read}` } })).body;
    assert.deepEqual(leaks(text), [], text);
    assert.match(text, /\*{4}/, `masked as version 2 says: ${text}`);
  });

  test('the operations view shows the engine, the queue and the daily figures as charts', async () => {
    await page.click('a[href="#/operations"]');
    await page.waitForSelector('#engine-title');
    await page.waitForSelector('.chart canvas');
    const text = (await page.textContent('main')) ?? '';
    assert.match(text, /Engine\s*Service\s*ok/);
    assert.match(text, /en-us:wideband/);
    assert.match(text, /Decoding streams/);
    await assertAccessible(page, 'operations');
    await shot(page, 'operations');
  });

  test('the keys view: an admin makes a read key, sees it once, copies it and revokes it after confirming', async () => {
    const asKey = (key: string) => svc.request({ method: 'GET', url: '/console/session', headers: { authorization: `Bearer ${key}` } });
    await admin.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    await page.click('a[href="#/keys"]');
    await page.waitForSelector('#key-form');
    // The key this tab signed in with is marked in the list.
    await page.locator('tr[data-key]', { hasText: 'console admin' }).filter({ hasText: 'this key' }).waitFor();

    await page.fill('#key-name', 'wallboard');
    await page.selectOption('#key-scope', 'read');
    await page.click('#key-create');
    await page.waitForSelector('#new-key');
    const key = await page.inputValue('#new-key');
    const id = (await page.getAttribute('.newkey', 'data-key'))!;
    assert.match(key, /^slk_[A-Za-z0-9_-]{43}$/);
    assert.match((await page.textContent('.newkey')) ?? '', /Shown once\..*cannot show it\s+again/s);
    assert.deepEqual(json(await asKey(key)), { scope: 'read', name: 'wallboard', open: false }, 'the key shown is the key made');
    const row = page.locator(`tr[data-key="${id}"]`);
    await page.waitForSelector(`tr[data-key="${id}"][data-state=active]`);
    assert.match((await row.textContent()) ?? '', /wallboard\s*read\s*slk_/);
    assert.ok(!((await row.textContent()) ?? '').includes(key.slice(0, 16)), 'the list shows the prefix only');

    await page.click('#copy-key');
    await page.waitForSelector('.newkey [role=status]');
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), key, 'copied');
    await assertAccessible(page, 'keys');
    await shot(page, 'keys');

    // Once: gone from the page when done, and never kept in the tab.
    await page.click('#key-done');
    assert.equal(await page.locator('#new-key').count(), 0);
    assert.ok(!(await page.content()).includes(key.slice(0, 16)), 'the key is shown once');
    const stored = await page.evaluate(() => JSON.stringify({ ...sessionStorage }) + JSON.stringify({ ...localStorage }) + document.cookie);
    assert.ok(!stored.includes(key), 'the key is not kept in the tab');

    // Revoke asks first; the key works until confirmed, and is refused at once after.
    await row.locator('button.revoke').click();
    await row.locator('[role=group]').waitFor();
    assert.equal((await asKey(key)).statusCode, 200, 'nothing revoked before the confirmation');
    await row.locator('button', { hasText: 'Cancel' }).click();
    assert.equal(await row.locator('[role=group]').count(), 0);
    await row.locator('button.revoke').click();
    await row.locator('button.danger').click();
    await page.waitForSelector(`tr[data-key="${id}"][data-state=revoked]`);
    assert.equal((await asKey(key)).statusCode, 401, 'the revoked key is refused');
    assert.equal(await row.locator('button.revoke').count(), 0, 'a revoked key has nothing left to revoke');
  });

  test('no content security policy violation and nothing fetched from elsewhere', async () => {
    await admin.close();
    assert.deepEqual(cspViolations, []);
    assert.deepEqual(outside, []);
  });
});

describe('the console on the embedded default (no key exists)', { skip: required(!fs.existsSync(CHROMIUM) && `needs Chromium at ${CHROMIUM}`) }, () => {
  test('opens without sign-in on loopback', async () => {
    ensureConsoleBuilt();
    const svc = await startTestService('sqlite', { workers: false });
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    try {
      const base = await svc.app.listen({ port: 0, host: '127.0.0.1' });
      const p = await browser.newPage();
      await p.goto(`${base}/`);
      await p.waitForSelector('#jobs-title');
      assert.equal(await p.locator('#apikey').count(), 0);
      assert.match((await p.textContent('.who')) ?? '', /Open on this machine/);
      await until(async () => (await p.locator('#jobs-count').count()) > 0, 'the jobs list');

      // The first key, made here, must be admin and closes the open console: the tab goes on signed in with it.
      await p.click('a[href="#/keys"]');
      await p.waitForSelector('#key-form');
      assert.equal(await p.inputValue('#key-scope'), 'admin');
      assert.ok(await p.isDisabled('#key-scope'), 'the first key is admin');
      await p.fill('#key-name', 'first');
      await p.click('#key-create');
      await p.waitForSelector('#new-key');
      const key = await p.inputValue('#new-key');
      assert.equal((await svc.request({ method: 'GET', url: '/console/session' })).statusCode, 401, 'keys are required now');
      await p.click('#sign-in-new');
      await p.waitForSelector('.who[data-scope=admin]');
      assert.match((await p.textContent('.who')) ?? '', /first · admin/);
      assert.equal(await p.evaluate(() => sessionStorage.getItem('scrubline.apiKey')), key);
      await p.waitForSelector('tr[data-key][data-state=active]');
    } finally {
      await browser.close();
      await svc.close();
    }
  });

  // What a page of another site does to a browser on this machine (src/api/browserGuard.ts): a name pointed at
  // 127.0.0.1 (DNS rebinding, here by Chromium's resolver rules) gets 421; that page's form posts, fetches and
  // WebSockets to the open API are refused, and nothing is made; the console itself (above) goes on working.
  test('a page of another site gets nothing: its name pointed here, its posts and its WebSockets are refused', async () => {
    const svc = await startTestService('sqlite', { workers: false });
    const attacker = http.createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>elsewhere</title>'));
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, '--host-resolver-rules=MAP rebound.test 127.0.0.1, MAP attacker.test 127.0.0.1'] });
    try {
      const base = await svc.app.listen({ port: 0, host: '127.0.0.1' });
      const port = new URL(base).port;
      await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
      const attackerPort = (attacker.address() as { port: number }).port;
      const p = await browser.newPage();

      const rebound = await p.goto(`http://rebound.test:${port}/console/`);
      assert.equal(rebound?.status(), 421);
      assert.equal(await p.evaluate(async () => (await fetch('/system/keys', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"x","scope":"admin"}' })).status), 421);

      await p.goto(`http://attacker.test:${attackerPort}/`);
      const outcome = await p.evaluate(async (api) => {
        const form = new FormData();
        form.append('cloudStoragePath', 's3://some-bucket/call.wav');
        await fetch(`${api}/asr/transcribe`, { method: 'POST', mode: 'no-cors', body: form }).catch(() => undefined);
        await fetch(`${api}/system/set-parameter`, { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: '{"name":"numtrans","value":true}' }).catch(() => undefined);
        const opened = await new Promise<boolean>((resolve) => {
          const socket = new WebSocket(`${api.replace(/^http/, 'ws')}/asr/stream`);
          socket.onopen = () => resolve(true);
          socket.onerror = () => resolve(false);
        });
        return { opened };
      }, base);
      assert.equal(outcome.opened, false, 'the WebSocket was refused');
      // A plain form posted by the page (a navigation): the browser shows the refusal.
      const [posted] = await Promise.all([
        p.waitForResponse((r) => r.url().endsWith('/asr/transcribe')),
        p.evaluate((api) => {
          const form = Object.assign(document.createElement('form'), { method: 'POST', action: `${api}/asr/transcribe`, enctype: 'multipart/form-data' });
          form.append(Object.assign(document.createElement('input'), { name: 'cloudStoragePath', value: 's3://some-bucket/call.wav' }));
          document.body.append(form);
          form.submit();
        }, base),
      ]);
      assert.equal(posted.status(), 403);
      assert.equal((await svc.services.store.jobs.list({ limit: 10, offset: 0 })).total, 0, 'no job was made');
      assert.equal((await svc.request({ method: 'GET', url: '/system/get-parameter?name=numtrans' })).statusCode, 200);
      assert.notEqual(json(await svc.request({ method: 'GET', url: '/system/get-parameter?name=numtrans' })).source, 'system', 'no parameter was set');
    } finally {
      await browser.close();
      attacker.close();
      await svc.close();
    }
  });
});
