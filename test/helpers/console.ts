// The console's pages for browser tests and benches: built into dist/console (as `./run build` does) when missing or
// older than its sources, the Chromium to drive them, and axe-core run inside a page.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CONSOLE_BUILD = path.join(ROOT, 'dist', 'console');
export const CHROMIUM = process.env.SCRUBLINE_CHROMIUM || '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

function newestIn(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestIn(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

/** Build the console unless dist/console is newer than every file of console/. */
export function ensureConsoleBuilt(): void {
  const index = path.join(CONSOLE_BUILD, 'index.html');
  if (fs.existsSync(index) && fs.statSync(index).mtimeMs >= newestIn(path.join(ROOT, 'console'))) return;
  execFileSync(path.join(ROOT, 'node_modules', '.bin', 'vite'), ['build', '--config', 'console/vite.config.ts'], { cwd: ROOT, stdio: 'inherit' });
}

const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/** axe-core over the page as it stands (evaluated through the devtools protocol, which the page's CSP does not govern). */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const result = await (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: AxeViolation[] }> } }).axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
    });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) }));
  });
}
