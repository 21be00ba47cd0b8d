// Where a history's bytes go (not part of `npm run bench`): per line kind of the segment
// files (event, delivery creation, patch, whole summary, attempt holding its body or a
// reference to its event's, carried), plus the index sidecars, over deliveries.
//   node bench/disk-split.mjs <history dir>          split an existing folder
//   node bench/disk-split.mjs --run [rounds=3] [s=5] bench row 7, one subscription: the
//     service and receiver as `npm run bench` starts them, 50 documents, one
//     subscription, 1,000 PUTs, then `rounds` PUT windows of `s` seconds (50
//     connections), each drained; the split is of what those windows added. COUNT=n:
//     exactly n PUTs instead of the windows (a figure that does not depend on the
//     machine's speed); CAP=n: COUNTERSIGN_HISTORY_CAP (segments close every cap/8);
//     SUBS=n: n subscriptions (each PUT fans out to all), 1 by default.
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';

function kindOf(line) {
  if (line.startsWith('{"t":"e"')) return 'event';
  if (line.startsWith('{"t":"u"')) return 'patch';
  if (line.startsWith('{"t":"d","s":')) return line.includes('],"a":[') ? 'carried' : 'creation';
  if (line.startsWith('{"t":"d"')) return 'whole summary';
  if (line.startsWith('{"t":"a"')) {
    if (line.includes(',"v":')) return 'attempt (plain)';
    return Array.isArray(JSON.parse(line).x[6]) ? 'attempt (ref)' : 'attempt (body)';
  }
  return 'other';
}

/** { files: {segments, sidecars}, kinds: {kind: {n, bytes}} } of a history folder (lines counted with their newline). */
export async function split(dir, skip = new Map()) {
  const kinds = {};
  const files = { segments: 0, sidecars: 0 };
  for (const name of (await readdir(dir)).sort()) {
    const p = join(dir, name);
    if (name.endsWith('.idx')) {
      files.sidecars += (await stat(p)).size;
      continue;
    }
    if (!name.endsWith('.jsonl')) continue;
    const text = (await readFile(p)).subarray(skip.get(name) ?? 0).toString('utf8');
    files.segments += Buffer.byteLength(text);
    for (const line of text.split('\n')) {
      if (!line) continue;
      const k = kindOf(line);
      const e = (kinds[k] ??= { n: 0, bytes: 0 });
      e.n++;
      e.bytes += Buffer.byteLength(line) + 1;
    }
  }
  return { files, kinds };
}

export function report({ files, kinds }, deliveries) {
  const rows = Object.entries(kinds).sort((a, b) => b[1].bytes - a[1].bytes);
  const out = [`deliveries ${deliveries}`];
  for (const [k, { n, bytes }] of rows)
    out.push(
      `${k.padEnd(16)} ${String(n).padStart(8)} lines ${(bytes / n).toFixed(0).padStart(6)} B/line ${(bytes / deliveries).toFixed(1).padStart(7)} B/delivery`,
    );
  out.push(
    `segments ${(files.segments / deliveries).toFixed(1)} B/delivery, sidecars ${(files.sidecars / deliveries).toFixed(1)} B/delivery`,
  );
  out.push(`total ${((files.segments + files.sidecars) / deliveries).toFixed(1)} B/delivery`);
  return out.join('\n');
}

async function sizes(dir) {
  const m = new Map();
  for (const name of await readdir(dir)) if (name.endsWith('.jsonl')) m.set(name, (await stat(join(dir, name))).size);
  return m;
}

async function run(rounds, seconds) {
  const { startNode, killAllChildren, stopChild } = await import('./lib/procs.mjs');
  const { startCountersign } = await import('./lib/countersign.mjs');
  const { putCount, putPhase, snapshot, waitHistory } = await import('./lib/phases.mjs');
  const { sleep } = await import('./lib/http.mjs');
  const root = new URL('..', import.meta.url).pathname.replace(/\/$/, '');
  const dataDir = await mkdtemp(join(os.tmpdir(), 'cs-disk-'));
  try {
    const receiverProc = await startNode(join(root, 'bench/receiver.mjs'), [], { name: 'receiver' });
    const cap = process.env.CAP;
    const cs = await startCountersign({ root, dataDir, extraEnv: cap ? { COUNTERSIGN_HISTORY_CAP: cap } : {} });
    const ctx = { cs, dataDir, docs: [], subs: [], expectedCs: 0, receiver: { ...receiverProc.ready, pid: receiverProc.child.pid } };
    for (let i = 0; i < 50; i++) ctx.docs.push((await cs.createDocument(i)).public_id);
    const subs = Number(process.env.SUBS ?? 1);
    for (let i = 0; i < subs; i++) ctx.subs.push({ id: (await cs.createSubscription(`${ctx.receiver.url}/cs/${i}`)).public_id });
    await putCount(ctx, Math.ceil(1000 / subs), 50, 'seed1k');
    await waitHistory(ctx, ctx.expectedCs);
    const hist = join(dataDir, 'history');
    const before = await snapshot(ctx);
    const skip = await sizes(hist);
    const idxBefore = (await split(hist)).files.sidecars;
    if (process.env.COUNT) await putCount(ctx, Number(process.env.COUNT), 50, 'count');
    else await putPhase(ctx, { durationMs: seconds * 1000, connections: 50, tag: 'small', rounds });
    await waitHistory(ctx, ctx.expectedCs);
    const after = await snapshot(ctx);
    const deliveries = after.history_deliveries - before.history_deliveries;
    console.log(`bench figure: ${((after.history_bytes - before.history_bytes) / deliveries).toFixed(1)} B/delivery over ${deliveries}`);
    await sleep(3000); // sidecars of segments closed at the very end
    const s = await split(hist, skip);
    s.files.sidecars -= idxBefore;
    console.log(report(s, deliveries));
    await stopChild(cs.child, 30_000);
  } finally {
    killAllChildren();
    if (!process.argv.includes('--keep')) await rm(dataDir, { recursive: true, force: true });
    else console.log(`kept ${dataDir}`);
  }
}

const args = process.argv.slice(2).filter((a) => a !== '--keep');
if (args[0] === '--run') await run(Number(args[1] ?? 3), Number(args[2] ?? 5));
else {
  const s = await split(args[0]);
  const deliveries = s.kinds.creation?.n ?? 0;
  console.log(report(s, deliveries));
}
