#!/usr/bin/env node
// Runs the compiled CLI (`npm run build` makes dist/).
import { main } from '../dist/cli/main.js';

await main(process.argv);
