// A worker's identity: a random id per process. Host names and process ids repeat (containers that share a
// host name space, a pid reused after a restart), so they cannot tell a live worker from a dead one; whether a
// worker is alive is told by its leases alone, renewed on the database's clock (store/jobs.ts).
import crypto from 'node:crypto';

export function newWorkerId(): string {
  return `worker-${crypto.randomUUID()}`;
}
