/** Writes the lists of ids in spec/'s JSON Schemas from their sources (scripts/spec-ids.ts); test/spec-ids.test.ts checks they are current. */
import { ROOT } from '../test/helpers.js';
import { writeSpecIds } from './spec-ids.js';

const changed = writeSpecIds(ROOT);
process.stdout.write(changed.length ? `wrote ${changed.join(', ')}\n` : 'the ids in spec/ are current\n');
