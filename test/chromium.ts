import {
  accessSync,
  constants,
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createBrotliDecompress } from 'node:zlib';
import { type Browser, chromium } from 'playwright-core';

/**
 * The browser test's Chromium. By default it is the headless Chromium that the dev dependency
 * `@sparticuz/chromium` ships inside its npm package (no apt-get, no root, no download: `npm ci`
 * brings it). Set CHECK_ENDPOINT_CHROMIUM to the path of another Chromium to test with that one
 * instead, e.g. `CHECK_ENDPOINT_CHROMIUM=/usr/bin/chromium npm test`; a system Chromium is never
 * picked up just because it is installed.
 */
const CHROMIUM_VARIABLE = 'CHECK_ENDPOINT_CHROMIUM';

/**
 * Flags for a machine with no network but the package registry: nothing may phone home. The
 * sandbox is off (as Playwright has it by default): root cannot use it, the package ships no setuid
 * sandbox helper, and without one the sandbox needs user namespaces, which some machines close
 * (Ubuntu 24.04 does, for programs without an AppArmor profile). The pages opened are the test's
 * own files, whose content security policy forbids every fetch and every foreign script.
 */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

interface ChromiumBinary {
  path: string;
  /** Where the binary came from, for messages. */
  origin: string;
}

/** The Chromium CHECK_ENDPOINT_CHROMIUM names, or else the one from the npm package, unpacked. */
async function findChromium(): Promise<ChromiumBinary> {
  const asked = process.env[CHROMIUM_VARIABLE];
  if (asked) {
    try {
      accessSync(asked, constants.X_OK);
    } catch {
      throw new Error(
        `${CHROMIUM_VARIABLE}=${asked} names no executable file. Point it at a Chromium binary, or unset it to use the Chromium of the @sparticuz/chromium dev dependency.`,
      );
    }
    return { path: asked, origin: `${CHROMIUM_VARIABLE}=${asked}` };
  }
  return unpackPackagedChromium();
}

/**
 * The package keeps its Chromium as one Brotli-compressed file, `bin/chromium.br` (about 67 MB,
 * 200 MB unpacked). Its own `executablePath()` unpacks it to `<tmpdir>/chromium` (with SwiftShader
 * libraries and fonts loose in `<tmpdir>` beside it, for AWS Lambda) and afterwards returns any file
 * found at that path, whatever version or half-written state it is in. So it is unpacked here to a
 * folder named by the package's version, under a temporary name renamed into place only when
 * complete; later runs reuse it (unpacking takes a few seconds) and another version gets its own folder.
 */
async function unpackPackagedChromium(): Promise<ChromiumBinary> {
  const root = packageRoot(dirname(createRequire(import.meta.url).resolve('@sparticuz/chromium')));
  const version = packageVersion(join(root, 'package.json'));
  const origin = `@sparticuz/chromium ${version}`;
  const folder = join(tmpdir(), `check-endpoint-chromium-${version}`);
  const binary = join(folder, 'chromium');
  if (existsSync(binary)) return { path: binary, origin };
  const partial = `${binary}.${process.pid}.partial`;
  try {
    mkdirSync(folder, { recursive: true });
    await pipeline(
      createReadStream(join(root, 'bin', 'chromium.br')),
      createBrotliDecompress(),
      createWriteStream(partial, { mode: 0o755 }),
    );
    renameSync(partial, binary);
  } catch (cause) {
    rmSync(partial, { force: true });
    throw new Error(`could not unpack the Chromium of ${origin} to ${binary}: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
  return { path: binary, origin };
}

/** The package's own folder, above its entry point (`build/` or `build/cjs/`, by version). */
function packageRoot(entryFolder: string): string {
  for (let folder = entryFolder; ; folder = dirname(folder)) {
    if (existsSync(join(folder, 'package.json')) && existsSync(join(folder, 'bin', 'chromium.br'))) return folder;
    if (dirname(folder) === folder) throw new Error(`no @sparticuz/chromium package folder above ${entryFolder}`);
  }
}

function packageVersion(file: string): string {
  const manifest: unknown = JSON.parse(readFileSync(file, 'utf8'));
  const version = typeof manifest === 'object' && manifest !== null && 'version' in manifest ? manifest.version : undefined;
  if (typeof version !== 'string') throw new Error(`${file} has no version`);
  return version;
}

/** Starts headless Chromium; a browser that cannot start is an error that says which binary and what to do. */
export async function launchChromium(): Promise<Browser> {
  let binary: ChromiumBinary | undefined;
  try {
    binary = await findChromium();
    return await chromium.launch({ executablePath: binary.path, headless: true, args: CHROMIUM_ARGS, timeout: 60_000 });
  } catch (cause) {
    const reason = (cause instanceof Error ? cause.message : String(cause)).split('\n').slice(0, 12).join('\n');
    const which = binary ? ` from ${binary.path} (${binary.origin})` : '';
    throw new Error(
      `headless Chromium could not start${which}: ${reason}\nThe HTML report's browser test uses the Chromium of the @sparticuz/chromium dev dependency (npm ci installs it), or the one ${CHROMIUM_VARIABLE} names.`,
    );
  }
}
