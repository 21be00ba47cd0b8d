// What the in-process bench tools (queue-bench.ts, sender-bench.ts) read about their own
// process, and the receiver they send to.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';

/** CPU seconds of this process: all threads, and the main thread alone (/proc, Linux). */
export function cpu(): { all: number; main: number } {
  const read = (path: string) => {
    const f = readFileSync(path, 'utf8');
    const fields = f.slice(f.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  };
  return { all: read(`/proc/${process.pid}/stat`), main: read(`/proc/${process.pid}/task/${process.pid}/stat`) };
}

/** bench/receiver.mjs in its own process; resolves with it and its URL once it prints its ready line. */
export async function startReceiver(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [join(process.cwd(), 'bench/receiver.mjs')], { stdio: ['ignore', 'pipe', 'inherit'] });
  let buf = '';
  for await (const chunk of child.stdout!) {
    buf += String(chunk);
    const line = buf.split('\n').find((l) => l.includes('"ready"'));
    if (line) {
      child.stdout!.resume();
      return { child, url: (JSON.parse(line) as { url: string }).url };
    }
  }
  throw new Error('the receiver exited before it was ready');
}
