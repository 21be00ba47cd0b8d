// How a command is written: one file a command (commands/*.ts), each a `defineCommand`
// with its arguments and options (commander) and an async action that returns an exit
// code. The action gets the output (human or --json) and an AbortSignal that fires on
// Ctrl-C / SIGTERM, so it can remove what it made before it returns.
import { Command } from 'commander';
import type { Output } from './output.js';
import type { ExitCode } from './exit-codes.js';

export interface CommandContext {
  out: Output;
  /** Aborted on SIGINT/SIGTERM: stop, clean up what the command made, return EXIT.interrupted. */
  signal: AbortSignal;
}

/** What main.ts gives each command when it is added to the program. */
export interface CommandHost {
  context(command: Command): CommandContext;
  finish(code: ExitCode): void;
}

export type CommandFactory = (host: CommandHost) => Command;

/**
 * `setup` names the command and declares its arguments and options; `action` receives
 * the context, the positional arguments and the parsed options.
 */
export function defineCommand<Opts = Record<string, unknown>>(
  setup: (cmd: Command) => Command,
  action: (ctx: CommandContext, args: string[], opts: Opts) => Promise<ExitCode>,
): CommandFactory {
  return (host) => {
    const cmd = setup(new Command());
    cmd.action(async (...params: unknown[]) => {
      const command = params[params.length - 1] as Command;
      const args = command.args.slice(0, command.registeredArguments.length);
      host.finish(await action(host.context(command), args, command.optsWithGlobals() as Opts));
    });
    return cmd;
  };
}
