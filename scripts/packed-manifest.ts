/**
 * The package.json a tarball carries: the clone's, without `prepare`. `prepare` is the build, the
 * script npm runs for a git dependency (`npm install git+https://…`); a tarball or a registry
 * install never runs it, but npm 11 still warns of it there ("install scripts not yet covered by
 * allowScripts"), and the tarball has no scripts/ to run it with. So `npm pack` and `npm publish`
 * pack a package.json without it, as pinst does for husky's postinstall:
 *
 * - `prepack` builds, then runs `strip`: package.json is kept as package.json.unpacked and
 *   rewritten without `prepare` (npm reads the manifest it packs after prepack, so it packs this one,
 *   and does not run the build a second time);
 * - `postpack` runs `restore`: package.json.unpacked is put back, byte for byte.
 *
 * A pack that failed between the two leaves package.json.unpacked behind: the next `strip` stops
 * and says so, rather than guess which package.json is the one to keep.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const manifestFile = join(root, 'package.json');
const keptFile = join(root, 'package.json.unpacked');

function strip(): void {
  if (existsSync(keptFile)) {
    // A pack that failed before its postpack: package.json is the packed one, or was edited since. Which to keep is the user's call.
    process.stderr.write(
      'packed-manifest: package.json.unpacked is left from a pack that did not finish (postpack put nothing back): ' +
        'keep the right package.json (package.json.unpacked is the one from before that pack, with "prepare"), delete package.json.unpacked, and pack again\n',
    );
    process.exit(1);
  }
  writeFileSync(keptFile, readFileSync(manifestFile));
  const manifest = JSON.parse(readFileSync(keptFile, 'utf8')) as { scripts?: Record<string, string> };
  delete manifest.scripts?.prepare;
  writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
}

function restore(): void {
  if (existsSync(keptFile)) renameSync(keptFile, manifestFile);
}

const mode = process.argv[2];
if (mode === 'strip') strip();
else if (mode === 'restore') restore();
else {
  process.stderr.write('usage: node --import tsx scripts/packed-manifest.ts strip|restore\n');
  process.exitCode = 2;
}
