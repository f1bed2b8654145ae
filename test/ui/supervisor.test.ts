// The console as a supervisor works in it, in a real headless Chromium against a real service (SQLite, text jobs:
// no recording needed): a call found by a word of its redacted transcript and never by its card number, the
// jobs filtered by call id; a call's lanes named Agent and Caller from the job's roles (the agent recorded on the
// right here, so a label by position would be wrong); compliance violations with their rule and place; a
// post-call record found by search and opened, by Agent and Caller, with its violation; a call's live streams
// and a stream's kept finals. No view shows a masked value, in its text or in any response it fetched; axe finds
// nothing serious; no content security policy violation, nothing fetched from elsewhere. Each view's screenshot is
// taken; with SCRUBLINE_UPDATE_SCREENSHOTS=1 written to docs/console, otherwise to a temporary folder.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { axeViolations, CHROMIUM, CHROMIUM_ARGS, ensureConsoleBuilt } from '../helpers/console.js';
import { json, startTestService, type TestService } from '../helpers/harness.js';
import { required } from '../helpers/require.js';

const SHOTS =
  process.env.SCRUBLINE_UPDATE_SCREENSHOTS === '1'
    ? path.resolve(import.meta.dirname, '../../docs/console')
    : path.join(os.tmpdir(), `scrubline-supervisor-shots-${process.pid}`);
const CARD = '4532 0151 1283 0366';
const CARD_GROUPS = CARD.split(' ');
const AGENT_ID = '7c9e6679-7425-40de-944b-e07fc1f740a1';
const CAMPAIGN_ID = '9b2f4c1e-1111-4222-8333-444455556666';

const PROJECT = {
  sid: 'supervisor',
  scrubtext: true,
  rules: [{ name: 'CreditCardNumber', mask_type: 'Placeholder' }],
  insights: [
    { id: 'greet', name: 'Greeting', expression: '"thank you for calling"', channel: 0 },
    // Must be said by the agent in the first five seconds; never is: a violation.
    { id: 'disclose', name: 'Recorded line disclosure', expression: '"recorded line"', channel: 0, complianceViolation: true, enableStartOffset: true, startOffset: 0, enableEndOffset: true, endOffset: 5 },
  ],
};

/** A group of the card as digits, not inside an id. */
const leaks = (text: string): string[] => CARD_GROUPS.filter((g) => new RegExp(`(?<![0-9a-f-])${g}(?![0-9a-f])`, 'i').test(text));

describe('the console for a supervisor', { skip: required(!fs.existsSync(CHROMIUM) && `needs Chromium at ${CHROMIUM}`) }, () => {
  let svc: TestService;
  let browser: Browser;
  let base: string;
  let keys: { admin: string; read: string };
  let context: BrowserContext;
  let page: Page;
  let analysed: string;
  let other: string;
  const bodies: Promise<string>[] = [];
  const cspViolations: string[] = [];
  const outside: string[] = [];

  async function assertAccessible(view: string) {
    fs.mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SHOTS, `supervisor-${view.replace(/\W+/g, '-')}.png`), fullPage: true });
    const serious = (await axeViolations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
    assert.deepEqual(serious, [], `${view}: ${serious.map((v) => `${v.id} (${v.help}) at ${JSON.stringify(v.nodes.slice(0, 3))}`).join('; ')}`);
  }
  const go = (hash: string) => page.evaluate((h) => void (location.hash = h), hash);
  const submit = async (payload: object): Promise<string> => {
    const res = await svc.request({ method: 'POST', url: '/asr/transcribe?wait=120', headers: { authorization: `Bearer ${keys.admin}` }, payload });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(json(res).redactionStatus, 'completed', res.body);
    return json(res).jobId;
  };

  before(async () => {
    ensureConsoleBuilt();
    svc = await startTestService('sqlite');
    base = await svc.app.listen({ port: 0, host: '127.0.0.1' });
    keys = { admin: (await svc.services.store.apiKeys.create('supervisor admin', 'admin')).key, read: (await svc.services.store.apiKeys.create('supervisor', 'read')).key };
    const admin = { authorization: `Bearer ${keys.admin}` };
    const published = await svc.request({ method: 'POST', url: '/system/cache/v2/publish', headers: admin, payload: { data: JSON.stringify(PROJECT) } });
    assert.equal(published.statusCode, 200, published.body);
    // The agent recorded on the right (channel 2): lanes named by position would call the agent "Channel 2".
    analysed = await submit({
      text: `Agent: thank you for calling acme about the zeppelin refund\nCaller: my card number is ${CARD} thanks`,
      sid: 'supervisor',
      analytics: true,
      insights: ['greet', 'disclose'],
      agent_location: 'right',
    });
    other = await submit({ text: 'Agent: good morning\nCaller: the walrus subscription please', sid: 'supervisor', callSid: 'CA-console-walrus' });
    const record = await svc.request({
      method: 'POST',
      url: '/system/cache/post-call',
      headers: admin,
      payload: {
        eventId: 'record-warranty',
        campaign: { agentLocation: 'left', enableTextRedaction: true },
        conversation: { agentId: AGENT_ID, campaignId: CAMPAIGN_ID },
        insights: [{ id: 'mini-miranda', name: 'collection notice', expression: '"attempt to collect"', channel: 0, complianceViolation: true }],
        vendorATranscript: {
          audiosecs: 12,
          nchannels: 2,
          utterances: [
            { metadata: { channel: 0 }, start: 0, end: 3, events: [['hello', 0, 1], ['warranty', 1, 2], ['claim', 2, 3]].map(([word, start, end]) => ({ word, start, end, confidence: 0.9 })) },
            {
              metadata: { channel: 1 },
              start: 4,
              end: 10,
              events: ['my', 'card', 'is', ...CARD_GROUPS].map((word, i) => ({ word, start: 4 + i * 0.8, end: 4.7 + i * 0.8, confidence: 0.9 })),
            },
          ],
        },
      },
    });
    assert.equal(record.statusCode, 201, record.body);
    // Two finals a live stream kept for its call (as the stream sent them: masked in flight).
    const kept = (sequence: number, channel: number, speaker: string, text: string, start: number, redacted?: string[]) =>
      svc.services.store.streamMessages.append(
        'stream-walrus',
        sequence,
        channel,
        { type: 'realTimeMessage', sequence, streamId: 'stream-walrus', channel, realTimeMessage: { text, speaker, isFinal: true, messageStartTime: start, agentId: 'agent-9' }, ...(redacted && { redacted }) },
        null,
        'CA-console-walrus',
      );
    await kept(1, 0, 'agent', 'thank you for calling, how can i help', 0.5);
    await kept(3, 1, 'caller', 'my card is [CREDIT_CARD_NUMBER]', 4.2, ['CreditCardNumber']);

    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    page.on('console', (m) => /Content Security Policy/i.test(m.text()) && cspViolations.push(m.text()));
    page.on('request', (r) => {
      const url = new URL(r.url());
      if (url.protocol.startsWith('http') && url.hostname !== '127.0.0.1') outside.push(r.url());
    });
    page.on('response', (r) => /json|text|html/.test(r.headers()['content-type'] ?? '') && bodies.push(r.text().catch(() => '')));
    // A read key: what a supervisor's wallboard or desk would hold.
    await page.goto(`${base}/console/`);
    await page.fill('#apikey', keys.read);
    await page.click('button[type=submit]');
    await page.waitForSelector('#jobs-count');
  });
  after(async () => {
    await browser?.close();
    await svc?.close();
  });

  test('search finds a call by a word of its redacted transcript, never by its card number', async () => {
    await page.fill('#filter-q', 'zeppelin');
    await page.click('#filter-apply');
    await page.waitForSelector(`table.search-results tr[data-hit="${analysed}"]`);
    assert.equal(await page.locator('table.search-results tbody tr').count(), 1, 'only the call that says it');
    assert.equal(await page.locator(`tr[data-job="${other}"]`).count(), 0, 'the page of jobs gives way to the calls found');
    const row = (await page.textContent(`tr[data-hit="${analysed}"]`)) ?? '';
    assert.match(row, /zeppelin refund/);
    assert.match((await page.textContent('#search-count')) ?? '', /1–1 found for “zeppelin”/);
    await assertAccessible('search');

    // The card's digits were masked before anything was indexed: nothing is found.
    await page.fill('#filter-q', CARD_GROUPS[0]);
    await page.click('#filter-apply');
    await page.waitForSelector('#search-count:has-text("No call holds")');
    assert.equal(await page.locator('table.search-results tbody tr').count(), 0);

  });

  test('search with agent and campaign finds the post-call record and opens it', async () => {
    await page.fill('#filter-q', 'warranty');
    await page.fill('#filter-agent', AGENT_ID);
    await page.fill('#filter-campaign', CAMPAIGN_ID);
    await page.click('#filter-apply');
    const hit = page.locator('tr[data-hit="record-warranty"][data-kind=record]');
    await hit.waitFor();
    assert.match((await hit.textContent()) ?? '', new RegExp(`post-call record.*hello warranty claim.*${AGENT_ID}.*${CAMPAIGN_ID}`, 's'));
    // Another agent's calls: not this one.
    await page.fill('#filter-agent', 'someone-else');
    await page.click('#filter-apply');
    await page.waitForSelector('#search-count:has-text("No call holds “warranty”")');
    await page.fill('#filter-agent', AGENT_ID);
    await page.click('#filter-apply');
    await hit.waitFor();
    await hit.locator('a').click();
    await page.waitForSelector('#record-title');
    assert.equal(await page.textContent('#record-title'), 'record-warranty');
  });

  test('a post-call record: Agent and Caller, its redacted transcript, its violation with rule and time', async () => {
    await page.waitForSelector('#analytics-title');
    const speakers = await page.locator('.turn .speaker').allTextContents();
    assert.deepEqual(speakers, ['Agent', 'Caller']);
    const transcript = (await page.textContent('.transcript')) ?? '';
    assert.match(transcript, /hello warranty claim/);
    assert.match(transcript, /my card is/);
    assert.deepEqual(leaks(transcript), [], transcript);
    assert.match((await page.textContent('.summary')) ?? '', new RegExp(`Agent${AGENT_ID}.*Campaign${CAMPAIGN_ID}`));
    const violation = page.locator('li[data-violation="mini-miranda"]');
    assert.equal(await violation.count(), 1);
    assert.match((await violation.textContent()) ?? '', /0:00\.0–0:12\.0 collection notice: not said by the agent in the call · rule "attempt to collect"/);
    assert.match((await page.textContent('#violations-title')) ?? '', /Compliance violations \(1\)/);
    await assertAccessible('record');

    // The list of records links to it.
    await page.click('a[href="#/records"]');
    await page.waitForSelector('tr[data-record="record-warranty"]');
    assert.match((await page.textContent('#records-count')) ?? '', /1–1 of 1/);
    await assertAccessible('records');
  });

  test('the jobs filtered by call id; a call with Agent and Caller from its roles, violations with rule and place', async () => {
    await page.click('a[href="#/jobs"]');
    await page.fill('#filter-q', '');
    await page.fill('#filter-agent', '');
    await page.fill('#filter-campaign', '');
    await page.fill('#filter-callSid', 'CA-console-walrus');
    await page.click('#filter-apply');
    await page.waitForSelector(`tr[data-job="${other}"]`);
    await page.waitForSelector(`tr[data-job="${analysed}"]`, { state: 'detached' });
    assert.match((await page.textContent('#jobs-count')) ?? '', /1–1 of 1/);

    await go(`#/jobs/${analysed}`);
    await page.waitForSelector('article[data-status=completed] #analytics-title');
    // The agent spoke on the second channel: that lane is the Agent's.
    assert.equal(await page.textContent('.turn[data-channel="1"] .speaker'), 'Agent');
    assert.equal(await page.textContent('.turn[data-channel="0"] .speaker'), 'Caller');
    assert.match((await page.textContent('.turn[data-channel="1"]')) ?? '', /thank you for calling acme/);
    assert.doesNotMatch((await page.textContent('main')) ?? '', /Channel \d/);
    assert.match((await page.textContent('.analytics .summary')) ?? '', /Talk time, Agent.*Talk time, Caller/s);
    // The greeting matched: an insight line of the agent's. The disclosure was never said: a violation.
    assert.match((await page.textContent('ul.insights li[data-insight="greet"]')) ?? '', /Greeting \(Agent\)/);
    const violation = page.locator('li[data-violation="disclose"]');
    await page.waitForSelector('li[data-violation="disclose"]:has-text("rule")');
    assert.match((await violation.textContent()) ?? '', /0:00\.0–0:05\.0 Recorded line disclosure: not said by the agent between 0:00\.0 and 0:05\.0 · rule "recorded line"/);
    assert.equal(await page.locator('li[data-violation]').count(), 1, 'a matched insight is not a violation');
    assert.deepEqual(leaks((await page.textContent('body')) ?? ''), []);
    await assertAccessible('call with violations');
  });

  test("a call's live streams and a stream's kept finals, by Agent and Caller", async () => {
    // From the call's job: its call id leads to the streams that carried it.
    await go(`#/jobs/${other}`);
    await page.click('a[href="#/streams?callSid=CA-console-walrus"]');
    const row = page.locator('tr[data-stream="stream-walrus"]');
    await row.waitFor();
    assert.equal(await page.inputValue('#streams-callSid'), 'CA-console-walrus');
    // Another call: none kept; the form finds them again.
    await page.fill('#streams-callSid', 'CA-nobody');
    await page.click('form[aria-label="Find the streams of a call"] button[type=submit]');
    await page.waitForSelector('#streams-count:has-text("No stream of call CA-nobody is kept.")');
    await page.fill('#streams-callSid', 'CA-console-walrus');
    await page.click('form[aria-label="Find the streams of a call"] button[type=submit]');
    await row.waitFor();
    assert.match((await row.textContent()) ?? '', /stream-walrus\s*CA-console-walrus\s*2/);
    await assertAccessible('streams');
    await row.locator('a').click();
    await page.waitForSelector('#stream-title');
    assert.equal(await page.textContent('dd[data-figure="finals"]'), '2');
    const finals = await page.locator('li[data-sequence]').evaluateAll((items) => items.map((li) => li.textContent?.replace(/\s+/g, ' ').trim()));
    assert.deepEqual(finals, ['0:00.5Agentthank you for calling, how can i help', '0:04.2Callermy card is [CREDIT_CARD_NUMBER] masked: CreditCardNumber']);
    await assertAccessible('stream');
  });

  test('search filters by category, violation and caller sentiment, with no words', async () => {
    const job = json(await svc.request({ method: 'GET', url: `/asr/jobs/${analysed}`, headers: { authorization: `Bearer ${keys.read}` } }));
    const hits = () => page.locator('table.search-results tbody tr').evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.hit));
    const filter = async (name: string, value: string) => {
      await go('#/dashboard');
      await go('#/jobs');
      await page.waitForSelector('#jobs-count');
      if (name === 'callerSentiment') await page.selectOption(`#filter-${name}`, value);
      else await page.fill(`#filter-${name}`, value);
      await page.click('#filter-apply');
      await page.waitForSelector('#search-count:has-text("by the filters"), #search-count:has-text("No call matches")');
      return hits();
    };
    // The post-call record never said its notice: a violation; the job's agent greeted.
    assert.deepEqual(await filter('violation', 'mini-miranda'), ['record-warranty']);
    assert.deepEqual(await filter('category', 'greet'), [analysed]);
    assert.deepEqual(await filter('category', 'no-such-insight'), []);
    assert.match((await page.textContent('#search-count')) ?? '', /No call matches the filters/);
    const found = await filter('callerSentiment', job.analytics.sentiment_caller);
    assert.ok(found.includes(analysed) && !found.includes(other), JSON.stringify(found));
    assert.deepEqual(leaks((await page.textContent('body')) ?? ''), []);
    await assertAccessible('search filters');
  });

  test('every kept stream listed, the most recently active first, with its call', async () => {
    await go('#/streams');
    const row = page.locator('tr[data-stream="stream-walrus"]');
    await row.waitFor();
    assert.match((await row.textContent()) ?? '', /stream-walrus\s*CA-console-walrus\s*2/);
    assert.match((await page.textContent('#streams-page')) ?? '', /^1–1$/);
    await assertAccessible('streams list');
  });

  test("the call's figures per party: talk speed, interruptions, sentiment per quarter, issues/outcomes/action items, summary", async () => {
    const job = json(await svc.request({ method: 'GET', url: `/asr/jobs/${analysed}`, headers: { authorization: `Bearer ${keys.read}` } }));
    await go(`#/jobs/${analysed}`);
    await page.waitForSelector('table.party-figures');
    for (const s of job.analytics.speakers as { role: string; words_per_minute: number | null; interruptions: number; interrupted: number; sentiment?: string; sentiment_quarters?: ({ sentiment: string } | null)[] }[]) {
      const row = page.locator(`table.party-figures tr[data-party="${s.role}"]`);
      assert.equal(await row.locator('th').textContent(), s.role === 'agent' ? 'Agent' : 'Caller');
      assert.equal(await row.locator('[data-figure="wpm"]').textContent(), s.words_per_minute === null ? '—' : `${Math.round(s.words_per_minute)} words/min`);
      assert.equal(await row.locator('[data-figure="interruptions"]').textContent(), String(s.interruptions));
      assert.equal(await row.locator('[data-figure="interrupted"]').textContent(), String(s.interrupted));
      assert.equal(await row.locator('[data-figure="sentiment"]').textContent(), s.sentiment ?? '—');
      assert.deepEqual(await row.locator('td[data-quarter]').allTextContents(), [0, 1, 2, 3].map((q) => s.sentiment_quarters?.[q]?.sentiment ?? '—'));
    }
    for (const [key, list] of [['issues', job.analytics.issues], ['outcomes', job.analytics.outcomes], ['action-items', job.analytics.action_items]] as const) {
      assert.equal(await page.locator(`ul[data-found="${key}"] li`).count(), (list as unknown[]).length, key);
    }
    assert.equal((await page.locator('#call-summary').count()) === 1 ? await page.textContent('#call-summary') : '', job.analytics.summary?.text ?? '');
    assert.deepEqual(leaks((await page.textContent('body')) ?? ''), []);
  });

  test('the dashboard: analysed calls, talk time, sentiment and insights per day and per agent, from the insight summary', async () => {
    const read = { authorization: `Bearer ${keys.read}` };
    const job = json(await svc.request({ method: 'GET', url: `/asr/jobs/${analysed}`, headers: read }));
    const record = json(await svc.request({ method: 'GET', url: '/system/cache/post-call/record-warranty', headers: { authorization: `Bearer ${keys.admin}` } }));
    const day = (job.createdAt as string).slice(0, 10);
    const summaries: string[] = [];
    page.on('request', (r) => r.url().includes('/asr/insights/summary') && summaries.push(r.url()));
    await page.click('a[href="#/dashboard"]');
    await page.waitForSelector('#dashboard-count');
    await page.waitForSelector('.chart canvas');
    // The analysed job and the processed post-call record; the other job asked for no analysis.
    assert.match((await page.textContent('#dashboard-count')) ?? '', /^2 analysed calls\.$/);
    assert.ok(summaries.length > 0, 'read from GET /asr/insights/summary');
    const row = async (caption: string) =>
      page.locator('figure.chart table', { has: page.locator('caption', { hasText: caption }) }).locator('tbody tr').evaluateAll((rows) => rows.map((r) => [...r.children].map((c) => c.textContent)));
    assert.deepEqual(await row('Analysed calls per day'), [[day, '2']]);
    const minutes = (side: 'agent' | 'caller') => String(Math.round(((job.analytics[`talk_time_${side}`] + record.analytics[`talk_time_${side}`]) / 60) * 100) / 100);
    assert.deepEqual(await row('Talk time per day'), [[day, minutes('agent'), minutes('caller')]]);
    const sentiments = [job.analytics.sentiment_caller, record.analytics.sentiment_caller];
    assert.deepEqual(await row('Caller sentiment per day'), [[day, ...['positive', 'neutral', 'negative'].map((p) => String(sentiments.filter((x) => x === p).length))]]);
    assert.deepEqual(await row('Insights per day'), [[day, '1', '2']], 'the greeting matched; the disclosure and the notice were violated');
    await assertAccessible('dashboard');
    await page.selectOption('#dashboard-groupBy', 'agent');
    await page.waitForSelector(`tr[data-group="${AGENT_ID}"]`);
    const groups = await page.locator('table.dashboard-groups tbody tr').evaluateAll((rows) => rows.map((r) => [(r as HTMLElement).dataset.group, r.children[1].textContent]));
    assert.deepEqual(groups, [[AGENT_ID, '1'], ['—', '1']], 'the record by its agent; the job was submitted with none');
    await assertAccessible('dashboard per agent');
  });

  test('insight rules edited in the projects view, previewed on a sample, published as a new version', async () => {
    // Editing needs an admin key: a tab of its own.
    const adminTab = await browser.newPage();
    adminTab.on('console', (m) => /Content Security Policy/i.test(m.text()) && cspViolations.push(m.text()));
    adminTab.on('response', (r) => /json|text|html/.test(r.headers()['content-type'] ?? '') && bodies.push(r.text().catch(() => '')));
    await adminTab.goto(`${base}/console/`);
    await adminTab.fill('#apikey', keys.admin);
    await adminTab.click('button[type=submit]');
    await adminTab.click('a[href="#/projects"]');
    await adminTab.locator('.project-list button', { hasText: 'supervisor' }).click();
    await adminTab.waitForSelector('tr[data-insight-rule="1"]');
    assert.equal(await adminTab.inputValue('input[name="insight-1-expression"]'), '"recorded line"');
    assert.equal(await adminTab.inputValue('input[name="insight-1-within"]'), '5');
    assert.ok(await adminTab.isChecked('input[name="insight-1-violation"]'));

    // A new rule: the caller saying "refund".
    await adminTab.click('#add-insight');
    await adminTab.fill('input[name="insight-2-id"]', 'refund');
    await adminTab.fill('input[name="insight-2-name"]', 'Refund asked');
    await adminTab.fill('input[name="insight-2-expression"]', 'refund');
    await adminTab.selectOption('select[name="insight-2-side"]', '1');
    await adminTab.fill('#preview-text', `Agent: thank you for calling\nCaller: i want a refund on card ${CARD}`);
    await adminTab.click('#preview');
    await adminTab.waitForSelector('li[data-finding="refund"]');
    const finding = async (id: string) => (await adminTab.textContent(`li[data-finding="${id}"]`))?.replace(/\s+/g, ' ').trim();
    assert.equal(await finding('greet'), 'Greeting: matched · line 1, Agent: “thank you for calling”');
    assert.equal(await finding('refund'), 'Refund asked: matched · line 2, Caller: “refund”');
    assert.equal(await finding('disclose'), 'Recorded line disclosure: violation (not said)');
    assert.deepEqual(leaks((await adminTab.textContent('.insight-findings')) ?? ''), []);

    // An expression that does not parse: the API's refusal speaks in the form, nothing is published.
    await adminTab.fill('input[name="insight-2-expression"]', '"refund');
    await adminTab.click('#publish');
    await adminTab.waitForSelector('#publish-form .error[role=alert]');
    assert.match((await adminTab.textContent('#publish-form .error')) ?? '', /insights/);
    await adminTab.fill('input[name="insight-2-expression"]', 'refund');
    await adminTab.click('#publish');
    await adminTab.waitForSelector('tr[data-version="2"]');
    assert.match((await adminTab.textContent('tr[data-version="2"]')) ?? '', /Greeting; Recorded line disclosure \(must be said\); Refund asked/);
    const versions = json(await svc.request({ method: 'GET', url: '/system/projects/supervisor/versions', headers: { authorization: `Bearer ${keys.read}` } })).versions;
    assert.deepEqual(versions[0].config.insights[2], { id: 'refund', name: 'Refund asked', expression: 'refund', channel: 1, expressionValidated: true });
    const swapPage = page;
    page = adminTab;
    await assertAccessible('projects with insight rules');
    page = swapPage;
    await adminTab.close();
  });

  test('no masked value in any response, no content security policy violation, nothing fetched from elsewhere', async () => {
    const all = await Promise.all(bodies);
    assert.ok(all.some((b) => b.includes('record-warranty')), 'the record was fetched');
    for (const body of all) assert.deepEqual(leaks(body), [], 'no card digits in any response');
    await context.close();
    assert.deepEqual(cspViolations, []);
    assert.deepEqual(outside, []);
  });
});
