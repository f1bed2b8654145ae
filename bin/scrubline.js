#!/usr/bin/env node
// The `scrubline` command: runs the compiled CLI (`npm run build` makes dist/). Scrubline runs on Node.js 24; when
// started by another Node and ./run installed Node 24 into the project (.node/current), it runs itself on that one
// (the native modules are built for it), passing signals on and exiting as it exits.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';

const NODE_MAJOR = '24';
const projectNode = fileURLToPath(new URL('../.node/current/bin/node', import.meta.url));

if (process.versions.node.split('.')[0] !== NODE_MAJOR && fs.existsSync(projectNode)) {
  const child = spawn(projectNode, [...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(signal ? 128 + os.constants.signals[signal] : (code ?? 1)));
} else {
  await import('../dist/cli/bin.js');
}
