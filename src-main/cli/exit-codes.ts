// Exit codes of the `countersign` command, the contract CI scripts rely on
// (docs/cli.md lists them). A command returns one of these; nothing else exits.
export const EXIT = {
  /** Everything asked for was done, and every required check passed. */
  ok: 0,
  /** The command ran, and what it tested did not hold (a failed check or expectation). */
  failed: 1,
  /** The command line was wrong (unknown command or option, missing argument, bad value). */
  usage: 2,
  /** Countersign or the target could not be reached or started. */
  unavailable: 3,
  /** Stopped by Ctrl-C (SIGINT) or SIGTERM, after cleaning up. */
  interrupted: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** A failure a person can act on: its message is printed as it is, without a stack. */
export class CliError extends Error {
  override name = 'CliError';
  constructor(
    message: string,
    readonly exitCode: ExitCode = EXIT.failed,
    /** A short machine-readable reason for --json output. */
    readonly code = 'error',
  ) {
    super(message);
  }
}

export const usageError = (message: string): CliError => new CliError(message, EXIT.usage, 'usage');
export const unavailable = (message: string): CliError => new CliError(message, EXIT.unavailable, 'unavailable');
