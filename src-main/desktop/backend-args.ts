// The desktop's command line carries more than the backend's flags: Electron's own
// arguments (the app folder in development), Chromium switches (some added by test
// drivers), and document links from the OS. This keeps only the backend's flags,
// in either `--flag value` or `--flag=value` form, for loadConfig (which refuses
// anything it does not know). Pure.

const BACKEND_FLAGS = new Set(['port', 'receiver-port', 'data-dir', 'demo']);

export function backendArgsFrom(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) continue;
    const eq = arg.indexOf('=');
    const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
    if (!BACKEND_FLAGS.has(name)) continue;
    if (eq !== -1) {
      out.push(arg);
    } else if (i + 1 < argv.length) {
      out.push(arg, argv[++i]);
    } else {
      // Left for loadConfig to report ("--port needs a value").
      out.push(arg);
    }
  }
  return out;
}
