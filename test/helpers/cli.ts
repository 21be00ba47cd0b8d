// Runs the `countersign` command the way a user or CI does: bin/countersign.mjs as a
// child process (it runs the built out/main/cli.js; `npm test` builds first).
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';

export const CLI_BIN = resolve('bin/countersign.mjs');

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCountersign(args: string[], opts: { env?: Record<string, string>; timeoutMs?: number } = {}): Promise<CliRun> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [CLI_BIN, ...args], { env: { ...process.env, ...opts.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`countersign ${args.join(' ')} did not finish in ${opts.timeoutMs ?? 30000} ms\n${stderr}`));
    }, opts.timeoutMs ?? 30000);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}
