// What a command prints. Human output by default; with --json, stdout carries only
// JSON (one document, or one document a line for commands that stream), so a script
// can parse it; progress and errors go to stderr in both modes.
export interface Output {
  readonly json: boolean;
  /** The command's result: `human()` as text, or `value` as one JSON document. */
  result(value: unknown, human: () => string): void;
  /** One streamed item (listen, scenario steps): a text line, or a JSON line. */
  item(value: unknown, human: string): void;
  /** Progress a person wants to see; never on stdout, and silent with --json. */
  note(message: string): void;
  /** An error, on stderr: a line of text, or `{"error":{…}}` with --json. */
  error(message: string, code?: string): void;
}

export interface OutputStreams {
  stdout: { write(s: string): unknown };
  stderr: { write(s: string): unknown };
}

export function createOutput(json: boolean, streams: OutputStreams = process): Output {
  const line = (s: string) => (s.endsWith('\n') ? s : s + '\n');
  return {
    json,
    result(value, human) {
      streams.stdout.write(json ? JSON.stringify(value, null, 2) + '\n' : line(human()));
    },
    item(value, human) {
      streams.stdout.write(json ? JSON.stringify(value) + '\n' : line(human));
    },
    note(message) {
      if (!json) streams.stderr.write(line(message));
    },
    error(message, code = 'error') {
      streams.stderr.write(json ? JSON.stringify({ error: { code, message } }) + '\n' : line(`countersign: ${message}`));
    },
  };
}
