// Preloaded with `node -r test/loaded-builtins.cjs <command>`: at exit, writes the Node built-in
// modules the process loaded, one a line (`node:child_process`), to the file LOADED_BUILTINS_FILE
// names. For the test that holds start-up lean; the command itself runs as it always does.
'use strict';
const { writeFileSync } = require('node:fs');

process.on('exit', () => {
  const builtins = process.moduleLoadList.filter((entry) => entry.startsWith('NativeModule ')).map((entry) => `node:${entry.slice(13)}`);
  writeFileSync(process.env.LOADED_BUILTINS_FILE, `${builtins.join('\n')}\n`);
});
