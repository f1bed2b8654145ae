// Worker identities name their host and process, so that a restarted service can tell which claimed jobs
// belonged to a process that no longer exists (killed, crashed) and take them back at once.
import crypto from 'node:crypto';
import os from 'node:os';

export function newWorkerId(): string {
  return `${os.hostname()}/${process.pid}/${crypto.randomBytes(3).toString('hex')}`;
}

/** Worker ids of this host whose process is gone. Other hosts' workers are left to their leases. */
export function deadLocalWorkers(workerIds: string[]): string[] {
  const host = os.hostname();
  return workerIds.filter((id) => {
    const [idHost, pidText] = id.split('/');
    const pid = Number(pidText);
    if (idHost !== host || !Number.isInteger(pid) || pid === process.pid) return false;
    try {
      process.kill(pid, 0);
      return false;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'ESRCH';
    }
  });
}
