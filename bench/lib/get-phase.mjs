// Row 1: GET /documents/:id on Countersign, on the bare node:http reference answering the
// same bytes, and (context only) on a bare Express 5 app, each in its own process, loaded
// by wrk. The three are alternated for `rounds` rounds, so load from other programs on
// the machine falls on all alike; each window is preceded by a short unmeasured warm-up
// (connections opened, code optimised). The best round of each is reported with the CPU
// it used; every round is kept in the JSON.
import { runWrk } from './wrk.mjs';
import { rssOf } from './procs.mjs';

const best = (list) => list.reduce((a, b) => (b.rps > a.rps ? b : a));

export async function getPhase(ctx, { seconds, warmupSeconds, threads, connections, rounds, extraRounds = 2, saturatedPct = 90, log }) {
  const path = `/documents/${ctx.docs[0]}`;
  // Every server gets the same request, key header included (the references ignore it).
  const headers = { 'x-api-key': ctx.cs.key };
  const targets = {
    cs: { url: `${ctx.cs.api}${path}`, pid: ctx.cs.pid, headers },
    ref: { url: `${ctx.ref.url}${path}`, pid: ctx.ref.pid, headers },
    express: { url: `${ctx.express.url}${path}`, pid: ctx.express.pid, headers },
  };
  const all = { cs: [], ref: [], express: [] };
  // Up to `extraRounds` more rounds while the reference has not yet been saturated in any
  // window (other programs held the cores): a quieter moment may come.
  const saturated = () => all.ref.some((r) => r.cpu.server >= saturatedPct);
  for (let i = 0; i < rounds || (i < rounds + extraRounds && !saturated()); i++) {
    for (const [name, t] of Object.entries(targets)) {
      const common = { url: t.url, headers: t.headers, threads, connections, serverPid: t.pid };
      await runWrk({ ...common, seconds: warmupSeconds });
      const r = await runWrk({ ...common, seconds });
      delete r.raw;
      all[name].push(r);
      log?.(
        `  GET ${name} round ${i + 1}: ${Math.round(r.rps)} req/s, server CPU ${r.cpu.server}% of a core, wrk ${r.cpu.wrk}%, machine ${r.cpu.machine}%`,
      );
    }
  }
  // The reference's best window among the saturated ones, if any (an unsaturated one says nothing about the server).
  const sat = all.ref.filter((r) => r.cpu.server >= saturatedPct);
  return {
    cs: best(all.cs),
    ref: best(sat.length ? sat : all.ref),
    express: best(all.express),
    rounds: all,
    wrk: { threads, connections, seconds, warmupSeconds },
    rss: { cs: rssOf(ctx.cs.pid), ref: rssOf(ctx.ref.pid), express: rssOf(ctx.express.pid) },
  };
}
