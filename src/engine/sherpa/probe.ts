// Loading a model is tried in a child process before the service relies on it: sherpa-onnx (like ONNX Runtime
// under it) ends the process on some bad inputs instead of throwing, and a model too big for the memory would
// take the service down with it. The child loads the recognizer, decodes a second of quiet noise, and reports
// the load time and the memory the model took; a failure comes back as the child's last words.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { SherpaModelSpec } from './modelFolder.js';

export interface ProbeResult {
  ok: boolean;
  /** Why not (the native library's own message where it gave one). */
  reason?: string;
  loadSeconds?: number;
  /** Resident memory the loaded model added to the process (bytes). */
  memoryBytes?: number;
  /** What a second of noise decoded to (proves decoding runs). */
  text?: string;
  checkedAt: string;
  /** The model files' names and sizes when checked (checkAtStart.ts checks again when they change). */
  signature?: string;
}

/** Node arguments that run `probeMain` from compiled dist/ or from TypeScript source under tsx. */
function probeCommand(): string[] {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return [fileURLToPath(new URL('./probeMain.js', here))];
  return ['--import', 'tsx', fileURLToPath(new URL('./probeMain.ts', here))];
}

export function probeModel(spec: SherpaModelSpec, options: { timeoutMs?: number } = {}): Promise<ProbeResult> {
  const checkedAt = new Date().toISOString();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...probeCommand(), JSON.stringify(spec)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 180_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ ok: false, reason: `the load check could not start: ${error.message}`, checkedAt });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const line = stdout.trim().split('\n').pop() ?? '';
      if (code === 0) {
        try {
          resolve({ ...(JSON.parse(line) as Omit<ProbeResult, 'checkedAt'>), ok: true, checkedAt });
          return;
        } catch {
          // fall through: report what was printed
        }
      }
      const said = stderr
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l && !l.startsWith('npm warn'))
        .slice(-3)
        .join(' | ');
      const how = signal ? `was killed (${signal}${signal === 'SIGKILL' ? ': out of time or memory' : ''})` : `exited with code ${code}`;
      resolve({ ok: false, reason: `loading the model failed: the check ${how}${said ? `: ${said}` : ''}`, checkedAt });
    });
  });
}
