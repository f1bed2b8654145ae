#!/usr/bin/env node
// The `scrubline` command: runs the compiled CLI (`npm run build` makes dist/).
import '../dist/cli/bin.js';
