// Preloaded with `node --expose-gc -r bench/heap-after-gc.cjs <command>`: at exit, a full garbage
// collection, then the heap still in use (in KiB) on file descriptor 3: what the command keeps, as
// against its peak memory (maxRSS), which also holds garbage not yet collected.
'use strict';
const { writeSync } = require('node:fs');

process.on('exit', () => {
  globalThis.gc();
  writeSync(3, `${Math.round(process.memoryUsage().heapUsed / 1024)}\n`);
});
