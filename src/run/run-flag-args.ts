/**
 * The check command's arguments, as types derived from the option table: what each run option's
 * flag gives the command, as parse.ts gives it (src/commands/check.ts maps them onto options).
 */
import type { AlwaysSet, FlagValueOf, Flatten } from './option-descriptor.js';
import type { Descriptors, OptionField } from './option-descriptors.js';

// The command's arguments a descriptor's flag gives, as parse.ts gives them: a flag that is off, a
// list, or has a default is always there; any other is there only when given.
type ArgumentKey<Name extends string> = Name extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<ArgumentKey<Tail>>}` : Name;

type FlagOfField<F extends OptionField> = Descriptors[F] extends { flag: infer Flag } ? Flag : never;
type CheckFlagField = {
  [F in OptionField]: Descriptors[F] extends { flag: { commands: readonly (infer C)[] } } ? ('check' extends C ? F : never) : never;
}[OptionField];
type NameOf<F extends OptionField> = Descriptors[F] extends { flag: { name: infer Name extends string } } ? Name : never;

/** The check command's arguments its run options' flags give it: `{ channel: string[]; agentTimeout?: number; … }`. */
export type RunFlagArgs = Flatten<
  { [F in CheckFlagField as FlagOfField<F> extends AlwaysSet ? ArgumentKey<NameOf<F>> : never]: FlagValueOf<FlagOfField<F>> } & {
    [F in CheckFlagField as FlagOfField<F> extends AlwaysSet ? never : ArgumentKey<NameOf<F>>]?: FlagValueOf<FlagOfField<F>>;
  }
>;
