// Issue 36, finding 4, at the bucket client (jobs/cloud/buckets.ts) with real sockets: an endpoint's address is
// checked when each connection is made (a name that resolves to loopback is refused, and the server behind it
// hears nothing), and an endpoint the operator allowed tells a closed port, an open non-HTTP port and a web
// server that is not S3 apart by nothing: one error text. A real s3rver answers S3 errors as they are.
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import { CloudBuckets } from '../../src/jobs/cloud/buckets.js';
import { TargetPolicy } from '../../src/jobs/notifications/targetPolicy.js';
import { createSecretBox } from '../../src/security/secretBox.js';
import { freePort } from '../helpers/cli.js';
import { type TestS3, testS3 } from '../helpers/s3.js';

const box = createSecretBox(Buffer.from('bucket-endpoints-test'));

/** What reading one object from a bucket at `endpoint` ends with: the error's message and whether it is for good. */
async function readError(buckets: CloudBuckets, bucket = 'calls'): Promise<{ message: string; permanent: boolean; unavailable: boolean }> {
  try {
    const stream = await (await buckets.bucket(bucket, {}, 'cloudStoragePath')).get('in/call.wav');
    stream.destroy();
  } catch (error) {
    const e = error as Error & { permanent?: boolean; unavailable?: boolean };
    return { message: e.message, permanent: e.permanent === true, unavailable: e.unavailable === true };
  }
  assert.fail('the read succeeded');
}

function clientFor(endpoint: string, policy: TargetPolicy, resolve?: (host: string) => Promise<{ address: string; family: number }[]>) {
  return new CloudBuckets({
    box,
    settings: async () => ({ endpoint, region: 'us-east-1', apiKeyCloud: 'AKIAEXAMPLE', secretKeyCloud: 'secret-for-the-test' }),
    store: { kind: 'local' },
    policy,
    ...(resolve && { resolve }),
  });
}

describe('bucket endpoints: checked at connect time, one error for whatever is not S3', () => {
  let s3: TestS3;
  const heard: string[] = [];
  let web: http.Server;
  let webPort: number;
  let silent: net.Server;
  let silentPort: number;
  let babbler: net.Server;
  let babblerPort: number;

  before(async () => {
    s3 = await testS3();
    // A web server that is not S3 (an internal service's stand-in): it records what reaches it.
    web = http.createServer((req, res) => {
      heard.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''}`);
      res.writeHead(Number(/status=(\d+)/.exec(req.url ?? '')?.[1] ?? 404), { 'content-type': 'text/html' }).end('<html>not here</html>');
    });
    await new Promise<void>((r) => web.listen(0, '127.0.0.1', r));
    webPort = (web.address() as net.AddressInfo).port;
    // An open port that closes every connection, and one that answers something that is not HTTP.
    silent = net.createServer((socket) => socket.destroy());
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    silentPort = (silent.address() as net.AddressInfo).port;
    babbler = net.createServer((socket) => socket.end('SSH-2.0-OpenSSH_9.6\r\n'));
    await new Promise<void>((r) => babbler.listen(0, '127.0.0.1', r));
    babblerPort = (babbler.address() as net.AddressInfo).port;
  });
  after(() => {
    web?.close();
    silent?.close();
    babbler?.close();
  });

  test('a name that resolves to loopback when the connection is made is refused, and its server hears nothing', async () => {
    heard.length = 0;
    // Public-looking at submit (not an internal name, not a literal address): only its resolution tells.
    const rebinding = async (host: string) => (host === 'buckets.example.com' ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '93.184.216.34', family: 4 }]);
    const buckets = clientFor(`http://buckets.example.com:${webPort}`, new TargetPolicy(), rebinding);
    try {
      const error = await readError(buckets);
      assert.equal(error.permanent, true, JSON.stringify(error));
      assert.match(error.message, /not an allowed address/);
      assert.deepEqual(heard, [], 'no request reached the internal server');
    } finally {
      buckets.close();
    }
  });

  test('a literal loopback address in any spelling is refused before connecting', async () => {
    heard.length = 0;
    for (const host of ['127.1', '2130706433', '0x7f000001', '[::ffff:127.0.0.1]', '127.0.0.1']) {
      const buckets = clientFor(`http://${host}:${webPort}`, new TargetPolicy());
      try {
        const error = await readError(buckets);
        assert.equal(error.permanent, true, `${host}: ${JSON.stringify(error)}`);
        assert.match(error.message, /endpoint must not point to a loopback/, host);
        assert.ok(!error.message.includes(String(webPort)), `${host}: the message names no port`);
      } finally {
        buckets.close();
      }
    }
    assert.deepEqual(heard, [], 'no request reached the internal server');
  });

  test('allowed by the operator: a closed port, an open port, a non-S3 web server read the same', async () => {
    const closed = await freePort();
    const policy = new TargetPolicy(['127.0.0.0/8']);
    const endpoints = {
      closed: `http://127.0.0.1:${closed}`,
      'open, closes at once': `http://127.0.0.1:${silentPort}`,
      'open, not HTTP': `http://127.0.0.1:${babblerPort}`,
      'a web server answering 404': `http://127.0.0.1:${webPort}/status=404/`,
      'a web server answering 403': `http://127.0.0.1:${webPort}/status=403/`,
      'a web server answering 500': `http://127.0.0.1:${webPort}/status=500/`,
    };
    const seen = new Map<string, string>();
    for (const [what, endpoint] of Object.entries(endpoints)) {
      const buckets = clientFor(endpoint, policy);
      try {
        const error = await readError(buckets);
        assert.equal(error.unavailable, true, `${what}: ${JSON.stringify(error)}`);
        seen.set(what, error.message);
      } finally {
        buckets.close();
      }
    }
    assert.equal(new Set(seen.values()).size, 1, `one text for all: ${JSON.stringify(Object.fromEntries(seen))}`);
    assert.match([...seen.values()][0], /could not be reached, or did not answer as S3 storage/);
  });

  test('a real S3 service still tells a missing object and a refused key', async () => {
    const calls = await s3.bucket('calls');
    const policy = new TargetPolicy([new URL(s3.endpoint).host]);
    const good = new CloudBuckets({
      box,
      settings: async () => ({ endpoint: s3.endpoint, region: s3.region, apiKeyCloud: s3.accessKeyId, secretKeyCloud: s3.secretAccessKey }),
      store: { kind: 'local' },
      policy,
    });
    const wrongKey = clientFor(s3.endpoint, policy);
    try {
      const missing = await readError(good, calls);
      assert.match(missing.message, /not found/);
      const denied = await readError(wrongKey, calls);
      assert.equal(denied.permanent, true);
      assert.match(denied.message, /refused the request \(InvalidAccessKeyId, 403\)/);
    } finally {
      good.close();
      wrongKey.close();
    }
  });
});
