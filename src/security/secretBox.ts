// Authenticated encryption (AES-256-GCM) for credential values at rest. A sealed value is a string
// "enc:v1:<iv>:<tag>:<ciphertext>" (base64url parts) so it fits the string fields it replaces.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const PREFIX = 'enc:v1:';

export interface SecretBox {
  seal(plain: string): string;
  open(sealed: string): string;
  isSealed(value: string): boolean;
  /** A key for another purpose (e.g. keyed hashes), derived from this box's key and never equal to it. */
  derive(purpose: string): string;
}

export function createSecretBox(keyMaterial: Buffer): SecretBox {
  // Any key material (a passphrase or random bytes) is stretched to exactly 32 bytes.
  const key = crypto.createHash('sha256').update(keyMaterial).digest();
  return {
    seal(plain) {
      const iv = crypto.randomBytes(12);
      const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
      const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return `${PREFIX}${iv.toString('base64url')}:${cipher.getAuthTag().toString('base64url')}:${ct.toString('base64url')}`;
    },
    open(sealed) {
      const [iv, tag, ct] = sealed.slice(PREFIX.length).split(':');
      if (!iv || !tag || ct === undefined) throw new Error('malformed sealed value');
      const decipher = crypto.createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
    },
    isSealed: (value) => value.startsWith(PREFIX),
    derive: (purpose) => crypto.createHmac('sha256', key).update(`scrubline:${purpose}`).digest('hex'),
  };
}

/**
 * The key comes from SCRUBLINE_SECRET_KEY when set (required when several machines share one database);
 * otherwise a random key is made once in the data directory, readable by its owner only.
 */
export function loadSecretBox(dataDir: string, configured?: string): SecretBox {
  if (configured) return createSecretBox(Buffer.from(configured, 'utf8'));
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'secret.key');
  try {
    fs.writeFileSync(file, crypto.randomBytes(32).toString('base64'), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return createSecretBox(Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'utf8'));
}
