import { startReferenceAgent } from '../example-agent/start-reference-agent.js';
import { type CheckCommandArgs, runCheckCommand } from './check.js';
import type { OptionNames } from '../core/option-error.js';
import type { Output } from './output.js';

/** The check's flags, less the URL, --start, --reuse-existing, --config, --other-target, --scenarios and --only: demo checks the agent it starts itself. */
export type DemoCommandArgs = Omit<
  CheckCommandArgs,
  | 'url'
  | 'start'
  | 'reuseExisting'
  | 'config'
  | 'configKeys'
  | 'otherTarget'
  | 'scenarios'
  | 'only'
  | 'failedFirst'
  | 'watch'
  | 'watchDir'
  | 'watchIgnore'
>;

/** `check-endpoint demo` (what `npm start` runs): the full check, every channel, against the reference agent. */
export async function runDemoCommand(args: DemoCommandArgs, output: Output, names: OptionNames): Promise<number> {
  const agent = await startReferenceAgent();
  try {
    output.line(output.colour.dim(`The bundled reference agent is listening at ${agent.url}; checking it:`));
    return await runCheckCommand(
      // Its agent listens on a new port each time: --failed plays the last demo's cases against it.
      {
        ...args,
        url: agent.url,
        channel: args.channel.length ? args.channel : ['all'],
        reuseExisting: false,
        otherTarget: true,
        only: [],
        failedFirst: false,
        watch: false,
        watchIgnore: [],
      },
      output,
      names,
    );
  } finally {
    await agent.close();
  }
}
