// Entry point of the `scrubline` command.
import { main } from './main.js';

await main(process.argv);
