/** Writes spec/config.schema.json from the option table (src/cli/config-schema.ts); test/config-file.test.ts checks it is current. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { configSchema } from '../src/cli/config-schema.js';
import { ROOT } from '../test/helpers.js';

writeFileSync(join(ROOT, 'spec/config.schema.json'), `${JSON.stringify(configSchema(), null, 2)}\n`);
process.stdout.write('wrote spec/config.schema.json\n');
