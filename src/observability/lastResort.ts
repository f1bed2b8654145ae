// The process's last line of defence. A promise rejected with nobody listening (a forgotten catch in a
// timer, a library's stray promise) is logged and the process goes on: one "database is locked" must not
// take down the API and every job in hand — job runs are fenced and leased, so a job hit by it is retried or
// failed by its own error handling, or claimed again when its lease runs out. An exception thrown with no
// handler leaves the process in an unknown state (Node's own advice): it is logged and the process exits
// with status 1 for its supervisor to restart it; its jobs' leases run out and other workers take them over.
import type { Logger } from 'pino';

let installed: { rejection: (reason: unknown) => void; exception: (error: Error) => void } | undefined;

export function installLastResortHandlers(logger: Logger, exit: (code: number) => void = (code) => process.exit(code)): void {
  if (installed) return;
  installed = {
    rejection: (reason) => logger.error({ err: reason }, 'a promise was rejected with no handler; the process keeps running'),
    exception: (error) => {
      logger.fatal({ err: error }, 'an exception was thrown with no handler; exiting (the jobs in hand are taken over when their leases run out)');
      exit(1);
    },
  };
  process.on('unhandledRejection', installed.rejection);
  process.on('uncaughtException', installed.exception);
}

/** Remove the handlers (tests). */
export function removeLastResortHandlers(): void {
  if (!installed) return;
  process.off('unhandledRejection', installed.rejection);
  process.off('uncaughtException', installed.exception);
  installed = undefined;
}
