// `countersign`: the command-line tool (docs/cli.md). This file builds the program from
// commands/ and turns every outcome into an exit code CI can trust (exit-codes.ts):
// usage mistakes are 2, never a stack trace; Ctrl-C lets the command clean up first.
import { Command, CommanderError } from 'commander';
import { COMMANDS } from './commands/index.js';
import { CliError, EXIT, type ExitCode } from './exit-codes.js';
import { createOutput, type OutputStreams } from './output.js';
import pkg from '../../package.json';

export interface CliIo extends OutputStreams {
  /** Where signals come from (the process; tests pass an EventEmitter). */
  signals?: { on(event: 'SIGINT' | 'SIGTERM', fn: () => void): unknown; off(event: 'SIGINT' | 'SIGTERM', fn: () => void): unknown };
}

export async function runCli(argv: string[], io: CliIo = process): Promise<ExitCode> {
  const controller = new AbortController();
  let code: ExitCode = EXIT.ok;
  const json = argv.includes('--json');
  const out = createOutput(json, io);
  const program = new Command('countersign')
    .description('Countersign from a terminal and in CI: prove a webhook endpoint, play scenarios, listen and trigger events.')
    .version(pkg.version, '-V, --version')
    .option('--json', 'print machine-readable JSON on stdout (errors as JSON on stderr)')
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) })
    .exitOverride();
  const host = {
    context: () => ({ out, signal: controller.signal }),
    finish: (c: ExitCode) => void (code = c),
  };
  for (const make of COMMANDS) program.addCommand(make(host).exitOverride());

  let interrupts = 0;
  const onSignal = () => {
    interrupts += 1;
    // The second Ctrl-C does not wait for the clean-up.
    if (interrupts > 1) process.exit(EXIT.interrupted);
    controller.abort();
  };
  const signals = io.signals ?? process;
  signals.on('SIGINT', onSignal);
  signals.on('SIGTERM', onSignal);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return code;
  } catch (err) {
    if (err instanceof CommanderError) {
      // --help and --version are successes; everything else commander refuses is usage.
      return err.code === 'commander.helpDisplayed' || err.code === 'commander.version' ? EXIT.ok : EXIT.usage;
    }
    if (err instanceof CliError) {
      out.error(err.message, err.code);
      return err.exitCode;
    }
    out.error(`unexpected failure: ${err instanceof Error ? err.message : String(err)}`, 'internal');
    return EXIT.failed;
  } finally {
    signals.off('SIGINT', onSignal);
    signals.off('SIGTERM', onSignal);
  }
}
