// The last line the build (scripts/build.ts) writes into dist/cli.cjs, after the bundle's wrapper:
// bin/check-endpoint.cjs reads a bundle's last bytes for it, so a copy cut short says so, never a version.
'use strict';
module.exports = '// check-endpoint: the end of the bundle';
