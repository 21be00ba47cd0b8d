// `npm start` as a person runs it (issue 13 item 9): headless here (COUNTERSIGN_HEADLESS=1),
// real `npm`, real processes, free ports, a temp data dir. The README's curl key works
// right away, and a signal sent to npm alone (not its process group: that is what
// `kill <pid>` and process managers do) stops every process it started and frees the ports.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { parseReadyLine, type ReadyLine } from '../../scripts/start.mjs';
import { waitUntil } from '../helpers/wait.js';

/** Live (not zombie) processes as pid → parent pid, from /proc. */
function processTable(): Map<number, number> {
  const table = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (state !== 'Z' && state !== 'X') table.set(Number(entry), Number(ppid));
    } catch {
      // Gone between the listing and the read.
    }
  }
  return table;
}

function descendantsOf(root: number): number[] {
  const table = processTable();
  const found = [root];
  for (let i = 0; i < found.length; i++) for (const [pid, ppid] of table) if (ppid === found[i]) found.push(pid);
  return found;
}

const refuses = (url: string) =>
  new Promise<boolean>((resolve) => {
    const { hostname, port } = new URL(url);
    const socket = connect(Number(port), hostname);
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });

const dirs: string[] = [];
const started: number[] = [];
afterEach(async () => {
  for (const pid of started.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone, as it should be.
    }
  }
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

async function npmStart() {
  const dataDir = await mkdtemp(join(tmpdir(), 'countersign-npm-start-'));
  dirs.push(dataDir);
  const env: NodeJS.ProcessEnv = { ...process.env, COUNTERSIGN_HEADLESS: '1' };
  delete env.COUNTERSIGN_ADMIN_KEY;
  const npm = spawn('npm', ['start', '--', '--port', '0', '--receiver-port', '0', '--data-dir', dataDir], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  npm.stderr!.on('data', (c) => (err += c));
  const ready = await new Promise<ReadyLine>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start did not get ready in 50 s: ${err}`)), 50_000);
    createInterface({ input: npm.stdout! }).on('line', (line) => {
      const value = parseReadyLine(line);
      if (!value) return;
      clearTimeout(timer);
      resolve(value);
    });
    npm.once('exit', (code) => reject(new Error(`npm start exited (${code}) before ready: ${err}`)));
  });
  const pids = descendantsOf(npm.pid!);
  started.push(...pids);
  return { npm, ready, pids, stderr: () => err };
}

describe('npm start', () => {
  it("makes the README's dev admin key (cs_dev_admin) work for curl right away", async () => {
    const { npm, ready } = await npmStart();
    const res = await fetch(`${ready.api_url}/v2/webhooks`, { headers: { 'X-Api-Key': 'cs_dev_admin' } });
    expect(res.status).toBe(200);
    const wrong = await fetch(`${ready.api_url}/v2/webhooks`, { headers: { 'X-Api-Key': 'cs_dev_other' } });
    expect(wrong.status).toBe(401);
    npm.kill('SIGTERM');
  });

  it.each(['SIGTERM', 'SIGINT', 'SIGKILL'] as const)('%s to npm alone leaves no process and no listener behind', async (signal) => {
    const { npm, ready, pids, stderr } = await npmStart();
    // npm, the starter and the headless server (a shell in between is allowed, not required).
    expect(pids.length).toBeGreaterThanOrEqual(3);
    expect(await refuses(ready.api_url)).toBe(false);
    npm.kill(signal);
    await waitUntil(
      `every process npm start began to exit after ${signal} (${stderr()})`,
      async () => {
        const live = processTable();
        return pids.every((pid) => !live.has(pid));
      },
      20_000,
      100,
    );
    expect(await refuses(ready.api_url)).toBe(true);
    expect(await refuses(ready.receiver_url)).toBe(true);
  });
});
