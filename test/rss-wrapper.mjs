// Runs the built command as the given arguments, then prints the process's peak memory (maxRSS,
// in KiB) on file descriptor 3, for the test that holds memory bounded against a hostile agent.
import { writeSync } from 'node:fs';

process.argv = [process.argv[0], new URL('../bin/check-endpoint.cjs', import.meta.url).pathname, ...process.argv.slice(2)];
process.on('exit', () => writeSync(3, `${process.resourceUsage().maxRSS}\n`));
await import('../bin/check-endpoint.cjs');
