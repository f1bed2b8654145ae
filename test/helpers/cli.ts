// Running the real `scrubline` command (from source, through tsx) and the real server in a child process.
// Bounds here are backstops against a hang, far above what a busy machine needs: tests wait on state, not time.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import net from 'node:net';

const ENTRY = ['--import', 'tsx', 'src/cli/bin.ts'];
const CHILD_BOUND_MS = 300_000;

export function runCli(args: string[], env: Record<string, string>): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [...ENTRY, ...args], { env: { ...process.env, ...env }, encoding: 'utf8', timeout: CHILD_BOUND_MS });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The same without blocking the event loop (for tests that serve something to the command themselves). */
export function runCliAsync(args: string[], env: Record<string, string>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...ENTRY, ...args], { env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), CHILD_BOUND_MS);
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Start `scrubline serve` and wait until it answers /health. */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [...ENTRY, 'serve'], {
    // The background model build at start is the setup's business in tests, not every server's.
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', SCRUBLINE_BUILD_MODELS_AT_START: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  // A backstop: a loaded machine (tsx compiling the sources) may take minutes to start a process.
  const deadline = Date.now() + 240_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    try {
      const res = await fetch(`${url}/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  // The start-up log line may trail the first answer through the pipe: wait for it (state), not for a while.
  for (const bound = Date.now() + 60_000; !output.includes('scrubline listening') && Date.now() < bound && child.exitCode === null; ) {
    await new Promise((r) => setTimeout(r, 20));
  }
  return {
    url,
    child,
    output: () => output,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null) return child.exitCode;
      child.kill(signal);
      return exited;
    },
  };
}

export interface WorkerProcess {
  child: ChildProcess;
  /** The worker's id, as its start-up line says. */
  id: string;
  /** Where its metrics are (GET), when it was started with a metrics port. */
  metricsUrl?: string;
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Start `scrubline worker` (with any extra arguments) and wait for its start-up line. */
export async function startWorkerProcess(env: Record<string, string>, args: string[] = []): Promise<WorkerProcess> {
  const child = spawn(process.execPath, [...ENTRY, 'worker', ...args], {
    env: { ...process.env, SCRUBLINE_BUILD_MODELS_AT_START: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  // A backstop: a loaded machine (tsx compiling the sources) may take minutes to start a process.
  const deadline = Date.now() + 240_000;
  let started: { worker: string; metrics?: string } | undefined;
  while (!started) {
    const line = output.split('\n').find((l) => l.includes('scrubline worker running'));
    if (line) started = JSON.parse(line) as { worker: string; metrics?: string };
    else if (child.exitCode !== null) throw new Error(`worker exited early:\n${output}`);
    else if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`worker did not start:\n${output}`);
    } else await new Promise((r) => setTimeout(r, 50));
  }
  return {
    child,
    id: started.worker,
    ...(started.metrics && { metricsUrl: started.metrics }),
    output: () => output,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null) return child.exitCode;
      child.kill(signal);
      return exited;
    },
  };
}
