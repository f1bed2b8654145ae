// Structured logs (pino). Credentials never reach a log line: request logs carry method, url and status
// only (never bodies), auth headers are redacted, and errors are logged by message and stack.
import pino, { type Logger } from 'pino';
import { CREDENTIAL_FIELDS } from '../schema/credentials.js';

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  const credentialPaths = CREDENTIAL_FIELDS.flatMap((field) => [field, `*.${field}`]);
  return pino(
    {
      level,
      base: { service: 'scrubline' },
      redact: {
        paths: ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers.cookie', ...credentialPaths],
        censor: '****',
      },
    },
    destination,
  );
}
