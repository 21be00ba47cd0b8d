// Runs the conformance scorecard against one endpoint: every item's requests (the
// items at once, each item's steps in order; the burst last, on its own), each
// recorded in the history log as a delivery tagged "check" (Outbox.recordCheck), then
// graded (catalogue.ts). Requests go through the engine's HTTP sender (its own HTTP/1.1
// client, no redirects, one deadline) and the same address policy as deliveries.
// Signatures carry the real time, not the service's clock: the endpoint judges
// webhook-timestamp by its own clock, so a frozen or advanced test clock must not
// turn every item into a stale-timestamp failure.
import { systemClock, isoNow, type Clock } from '../clock.js';
import { newId } from '../ids.js';
import { HttpSender } from '../delivery/http-sender.js';
import type { Outbox } from '../delivery/outbox.js';
import type { AddressPolicy } from '../net/address-policy.js';
import type { CheckItem, CheckItemId, CheckResult } from '@shared/check-types.js';
import { ITEMS, type ItemPlan } from './catalogue.js';
import { slowest, type Sent } from './grading.js';
import { probeKit, type Probe } from './probes.js';

export interface CheckDeps {
  outbox: Outbox;
  clock: Clock;
  policy: AddressPolicy;
  /** The console's address, for the links inside the events' documents. */
  appUrl: () => string;
}

export interface CheckInput {
  companyId: string;
  url: string;
  secret: string;
  timeoutMs: number;
}

interface Run {
  deps: CheckDeps;
  input: CheckInput;
  checkId: string;
  sender: HttpSender;
  /** Requests made so far per delivery id (a repeat is attempt 2). */
  attempts: Map<string, number>;
}

async function send(run: Run, p: Probe): Promise<Sent> {
  const attempt = (run.attempts.get(p.deliveryId) ?? 0) + 1;
  run.attempts.set(p.deliveryId, attempt);
  const startedAt = run.deps.clock.now();
  const result = await run.sender.send(run.input.url, p.headers, p.body);
  const { companyId, url } = run.input;
  run.deps.outbox.recordCheck({
    checkId: run.checkId,
    companyId,
    deliveryId: p.deliveryId,
    eventId: p.eventId,
    eventType: p.eventType,
    documentId: p.documentId,
    attempt,
    url,
    startedAt,
    headers: p.headers,
    body: p.body,
    result,
  });
  return { probe: p, result };
}

async function runSteps(run: Run, steps: Probe[][]): Promise<Sent[]> {
  const sent: Sent[] = [];
  for (const step of steps) sent.push(...(await Promise.all(step.map((p) => send(run, p)))));
  return sent;
}

function item(plan: ItemPlan, sent: Sent[], all: Map<CheckItemId, Sent[]>, timeoutMs: number): CheckItem {
  const grade = plan.grade(sent, all, timeoutMs);
  return {
    id: plan.id,
    title: plan.title,
    required: plan.required,
    status: grade.status,
    message: grade.message,
    why: plan.why,
    fix: grade.status === 'pass' ? '' : plan.fix,
    latency_ms: slowest(sent),
    deliveries: [...new Set(sent.map((s) => s.probe.deliveryId))],
  };
}

export function summarise(items: CheckItem[]): Pick<CheckResult, 'passed' | 'score' | 'summary'> {
  const count = (s: CheckItem['status']) => items.filter((i) => i.status === s).length;
  const score = { passed: count('pass'), warned: count('warn'), failed: count('fail'), total: items.length };
  const failedRequired = items.filter((i) => i.required && i.status === 'fail');
  const passed = failedRequired.length === 0;
  const tail = passed ? 'every required item passed' : `failed: ${failedRequired.map((i) => i.id).join(', ')}`;
  const warn = score.warned > 0 ? `, ${score.warned} warning${score.warned > 1 ? 's' : ''}` : '';
  return { passed, score, summary: `${score.passed}/${score.total} passed${warn}; ${tail}` };
}

/** Runs every item against `input.url` and grades it. Never rejects for what the endpoint does. */
export async function runCheck(deps: CheckDeps, input: CheckInput): Promise<CheckResult> {
  const started = performance.now();
  const created_at = isoNow(deps.clock);
  const run: Run = {
    deps,
    input,
    checkId: newId('chk'),
    sender: new HttpSender({ timeoutMs: input.timeoutMs, connections: 32, policy: deps.policy }),
    attempts: new Map(),
  };
  const kit = probeKit(input.secret, systemClock.now(), deps.appUrl());
  const all = new Map<CheckItemId, Sent[]>();
  try {
    const burst = ITEMS.find((p) => p.id === 'survives_burst')!;
    const others = ITEMS.filter((p) => p !== burst);
    const sentLists = await Promise.all(others.map((p) => runSteps(run, p.steps(kit))));
    others.forEach((p, i) => all.set(p.id, sentLists[i]));
    all.set(burst.id, await runSteps(run, burst.steps(kit)));
  } finally {
    await run.sender.close();
  }
  const items = ITEMS.map((p) => item(p, all.get(p.id) ?? [], all, input.timeoutMs));
  const reachable = [...all.values()].some((list) => list.some((s) => s.result.response !== null));
  return {
    object: 'check',
    id: run.checkId,
    url: input.url,
    created_at,
    timeout_ms: input.timeoutMs,
    duration_ms: Math.round(performance.now() - started),
    reachable,
    ...summarise(items),
    items,
  };
}
