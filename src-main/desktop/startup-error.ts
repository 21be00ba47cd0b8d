// What a person reads when the desktop app cannot start: the cause and what to do,
// never a stack trace. Pure (names only, no Electron).

export function startupErrorMessage(err: unknown): string {
  const e = err as (Error & { code?: string }) | undefined;
  const message = e instanceof Error ? e.message : String(err);
  if (e?.name === 'ConfigError') return `A setting is wrong: ${message}`;
  if (e?.name === 'DataDirLockedError')
    return `${message}\n\nCountersign is probably already running on this data folder (the headless console, perhaps). Quit it first.`;
  if (e?.code === 'EADDRINUSE') {
    return (
      `A port is already in use (${message}).\n\nAnother Countersign (perhaps the headless console) may be running: quit it, ` +
      'or start with --port 0 --receiver-port 0 (or COUNTERSIGN_PORT / COUNTERSIGN_RECEIVER_PORT) to pick free ports.'
    );
  }
  return message;
}
