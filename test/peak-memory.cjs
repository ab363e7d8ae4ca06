// Preloaded with `node -r test/peak-memory.cjs <command>`: at exit, writes the process's peak
// memory (maxRSS, in KiB) on file descriptor 3. For the test that holds memory bounded against a
// hostile agent, and for the benchmark; the command itself runs as it always does.
'use strict';
const { writeSync } = require('node:fs');

process.on('exit', () => writeSync(3, `${process.resourceUsage().maxRSS}\n`));
