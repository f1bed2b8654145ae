// A real S3-protocol server on loopback for tests (s3rver, file-backed), started once per test process. The
// service talks to it through @aws-sdk/client-s3 with path-style addressing, as it would to MinIO or Ceph.
// Its credentials are random per run, so a leak test can look for them in every response and log line.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { S3BlobStore, s3Client } from '../../src/store/blobs/index.js';

export interface TestS3 {
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** A fresh bucket (made on the server). */
  bucket(prefix?: string): Promise<string>;
  /** The service's environment for a blob store in `bucket` under `prefix`. */
  env(bucket: string, prefix?: string): Record<string, string>;
  /** A blob store over a bucket, for a test to look into (or fill) it. */
  store(bucket: string, prefix?: string): S3BlobStore;
  close(): Promise<void>;
}

let started: Promise<TestS3> | undefined;

/** The test process's S3 server (started on first use, stopped when the process exits). */
export function testS3(): Promise<TestS3> {
  started ??= start();
  return started;
}

async function start(): Promise<TestS3> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'scrubline-s3rver-'));
  // Any well-formed signature is accepted: the secret can then be a random, fresh value a leak test hunts for
  // (s3rver knows one access key id, S3RVER; the id is not the secret).
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, allowMismatchedSignatures: true });
  const { port } = (await server.run()) as unknown as { port: number };
  // The server (and every connection to it) does not keep the test process alive: it ends with the process.
  const http = (server as unknown as { httpServer: import('node:net').Server }).httpServer;
  http.unref();
  http.on('connection', (socket) => socket.unref());
  const endpoint = `http://127.0.0.1:${port}`;
  const region = 'us-east-1';
  const accessKeyId = 'S3RVER';
  const secretAccessKey = `s3secret-${crypto.randomBytes(18).toString('base64url')}`;
  const client = s3Client({ endpoint, region, forcePathStyle: true, credentials: { accessKeyId, secretAccessKey } });
  const s3: TestS3 = {
    endpoint,
    region,
    accessKeyId,
    secretAccessKey,
    async bucket(prefix = 'scrubline') {
      const name = `${prefix}-${crypto.randomBytes(6).toString('hex')}`;
      await client.send(new CreateBucketCommand({ Bucket: name }));
      return name;
    },
    env(bucket, prefix = '') {
      return {
        SCRUBLINE_BLOB_STORE: 's3',
        SCRUBLINE_S3_ENDPOINT: endpoint,
        SCRUBLINE_S3_REGION: region,
        SCRUBLINE_S3_BUCKET: bucket,
        SCRUBLINE_S3_PREFIX: prefix,
        SCRUBLINE_S3_FORCE_PATH_STYLE: 'true',
        SCRUBLINE_S3_ACCESS_KEY_ID: accessKeyId,
        SCRUBLINE_S3_SECRET_ACCESS_KEY: secretAccessKey,
      };
    },
    store(bucket, prefix = '') {
      return new S3BlobStore({ endpoint, region, bucket, prefix, forcePathStyle: true, credentials: { accessKeyId, secretAccessKey } });
    },
    async close() {
      client.destroy();
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
  return s3;
}

/** Whether this run's job tests keep their files in a bucket (SCRUBLINE_BLOB_STORE=s3) rather than the data dir. */
export function s3Mode(): boolean {
  return process.env.SCRUBLINE_BLOB_STORE === 's3';
}
