/**
 * What a test goes over instead of counting: the contract's platforms (what `--channel all`
 * checks), the case registry's fixed cases, each in its order, and the report formats' files. A channel added to the contract,
 * or a case to the registry, is then checked by these tests without editing them.
 */
import { knownChannels } from '../src/contract/contract.js';
import { bundledContract } from '../src/contract/load-contract.js';
import { REPORT_FORMATS } from '../src/report/formats.js';
import { CASE_IDS, QUALITY_CASE_IDS } from '../src/cases/registry.js';

/** Every platform the contract names (`x-platforms`), in its order. */
export const CHANNELS: readonly string[] = knownChannels(bundledContract());

/** The platforms whose limits take an image (`image.support` is not `no`): where a large attachment is sent. */
export const IMAGE_CHANNELS: readonly string[] = CHANNELS.filter(
  (channel) => bundledContract().platforms[channel]!.image?.support !== 'no',
);

/** The fixed cases, played on every run, in the registry's order. */
export const FIXED_CASE_IDS: readonly string[] = CASE_IDS;

/** The quality cases (--quality), in the registry's order. */
export const QUALITY_IDS: readonly string[] = QUALITY_CASE_IDS;

/** The files --report-dir writes for a run that started (without --start), sorted: each report format's that has one. */
export const REPORT_DIR_FILES: readonly string[] = REPORT_FORMATS.flatMap((format) => format.dirFile ?? []).sort();

/** The items of `list` whose key is one of `keys`, in order: the part of a derived list an older, literal expectation spoke of. */
export function onlyOf<T>(list: readonly T[], keys: readonly string[], key: (item: T) => string): T[] {
  return list.filter((item) => keys.includes(key(item)));
}
