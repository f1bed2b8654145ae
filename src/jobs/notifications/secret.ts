// The signing secret of notifications: SCRUBLINE_WEBHOOK_SECRET when configured (it must be the same on every
// process that shares a database, and receivers are given it), else one made once in the data directory.
import fs from 'node:fs';
import path from 'node:path';
import { generateSecret, secretKey } from './signing.js';

export const WEBHOOK_SECRET_FILE = 'webhook-secret';

/** The secret in the `whsec_` form; throws (without quoting it) when the configured one is malformed. */
export function loadWebhookSecret(dataDir: string, configured?: string): string {
  if (configured) {
    secretKey(configured);
    return configured;
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, WEBHOOK_SECRET_FILE);
  if (!fs.existsSync(file)) {
    // Written aside and linked into place, so a process starting alongside never reads a half-written file.
    const temp = `${file}.${process.pid}.${Date.now()}.tmp`;
    fs.writeFileSync(temp, generateSecret() + '\n', { flag: 'wx', mode: 0o600 });
    try {
      fs.linkSync(temp, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      fs.rmSync(temp, { force: true });
    }
  }
  const secret = fs.readFileSync(file, 'utf8').trim();
  secretKey(secret);
  return secret;
}
