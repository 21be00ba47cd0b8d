// Runs a scenario (schema.ts) inside the service, on the test clock: it freezes the
// clock, points a subscription at the endpoint (an inbox of the built-in receiver, or
// the user's URL signed with their secret), plays the steps in order, lets the
// deliveries each step caused go out (and only those due: retries wait for an
// advance_clock step), and judges the expectations. The clock is resumed at the end if
// it was running, and the subscription is removed; the inbox, the deliveries and the
// captures stay for the inspector.
import { systemClock, isoNow, type Clock } from '../clock.js';
import type { ClockControl } from '../clock-control.js';
import type { Domain } from '../domain/domain.js';
import type { Receiver } from '../receiver/receiver.js';
import type { HistoryLog } from '../store/history-types.js';
import type { FaultRegistry } from '../delivery/faults.js';
import type { Store } from '../store/store.js';
import type { ScenarioRun, ScenarioStepResult } from '@shared/scenario-types.js';
import type { Scenario } from './schema.js';
import { playStep, type RunState } from './steps.js';

export interface ScenarioDeps {
  domain: Domain;
  history: HistoryLog;
  receiver: Receiver;
  clockControl: ClockControl;
  clock: Clock;
  /** Deliberate faults per subscription, and the store they are kept in (set_faults). */
  faults: FaultRegistry;
  store: Store;
  /** Attempts on the network now (the delivery engine). */
  inFlight: () => number;
}

export interface ScenarioInput {
  companyId: string;
  scenario: Scenario;
  /** The user's endpoint; without it, a new inbox of the built-in receiver. */
  target?: { url: string; secret: string };
  /** Keep the subscription afterwards (a demo shows it); by default the run removes it. */
  keepEndpoint?: boolean;
}

/** How long one step may take to let its deliveries go out (real time). */
const SETTLE_LIMIT_MS = 20_000;
const SETTLE_POLL_MS = 5;

export async function runScenario(deps: ScenarioDeps, input: ScenarioInput): Promise<ScenarioRun> {
  const started = systemClock.now();
  const startedAt = isoNow(deps.clock);
  const wasFrozen = deps.clockControl.view().frozen;
  await deps.clockControl.freeze();
  const state = await openEndpoint(deps, input);
  const steps: ScenarioStepResult[] = [];
  try {
    for (const [i, step] of input.scenario.steps.entries()) {
      const failedBefore = steps.some((s) => s.outcome === 'failed' && s.do !== 'expect');
      if (failedBefore) {
        steps.push({
          index: i + 1,
          do: step.do,
          summary: 'not run: an earlier step could not be done',
          outcome: 'not_run',
          problems: [],
          delivery_ids: [],
          at: isoNow(deps.clock),
        });
        continue;
      }
      steps.push(await runStep(deps, state, step, i + 1));
    }
  } finally {
    if (!input.keepEndpoint) await closeEndpoint(deps, state, input.companyId);
    if (!wasFrozen) await deps.clockControl.resume();
  }
  return {
    object: 'scenario_run',
    name: input.scenario.name,
    passed: steps.every((s) => s.outcome === 'passed'),
    summary: runSummary(steps),
    started_at: startedAt,
    duration_ms: systemClock.now() - started,
    endpoint: { url: state.url, inbox_id: state.inboxId, subscription_id: state.subscriptionId },
    documents: Object.fromEntries(state.refs),
    steps,
  };
}

async function runStep(deps: ScenarioDeps, state: RunState, step: Scenario['steps'][number], index: number): Promise<ScenarioStepResult> {
  const before = attemptsBySent(deps, state);
  let summary: string;
  let problems: string[];
  try {
    ({ summary, problems } = await playStep(deps, state, step, () => settle(deps, state)));
  } catch (err) {
    summary = `could not ${step.do.replace(/_/g, ' ')}`;
    problems = [err instanceof Error ? err.message : String(err)];
  }
  const after = attemptsBySent(deps, state);
  const touched = [...after].filter(([id, n]) => before.get(id) !== n).map(([id]) => id);
  return {
    index,
    do: step.do,
    summary,
    outcome: problems.length ? 'failed' : 'passed',
    problems,
    delivery_ids: touched,
    at: isoNow(deps.clock),
  };
}

function attemptsBySent(deps: ScenarioDeps, state: RunState): Map<string, number> {
  const page = deps.history.listDeliveries({ company_id: state.companyId, subscription_id: state.subscriptionId }, { limit: 1000 });
  return new Map(page.data.map((d) => [d.id, d.attempts]));
}

/** Plays what is due now on the frozen clock until nothing of this run is due or on the network. */
async function settle(deps: ScenarioDeps, state: RunState): Promise<void> {
  const deadline = systemClock.now() + SETTLE_LIMIT_MS;
  for (;;) {
    await deps.clockControl.advance(0);
    const now = deps.clock.now();
    const page = deps.history.listDeliveries({ company_id: state.companyId, subscription_id: state.subscriptionId }, { limit: 1000 });
    const due = page.data.some((d) => d.status === 'pending' && d.next_attempt_at !== null && d.next_attempt_at <= now);
    if (!due && deps.inFlight() === 0) return;
    if (systemClock.now() > deadline) throw new Error('the deliveries of this step did not go out within 20 s');
    await new Promise<void>((resolve) => systemClock.setTimeout(resolve, SETTLE_POLL_MS));
  }
}

async function openEndpoint(deps: ScenarioDeps, input: ScenarioInput): Promise<RunState> {
  const type = input.scenario.events ?? 'all';
  let inboxId: string | null = null;
  let url: string;
  let secret: string | undefined;
  if (input.target) {
    ({ url, secret } = input.target);
  } else {
    const response = input.scenario.endpoint?.response;
    const inbox = await deps.receiver.inboxes.create({ name: `Scenario ${input.scenario.name}`, ...(response ? { response } : {}) });
    inboxId = inbox.id;
    url = inbox.local_url;
  }
  const sub = await deps.domain.createSubscription(input.companyId, { url, type, ...(secret ? { secret_key: secret } : {}) });
  return { companyId: input.companyId, subscriptionId: sub.public_id, inboxId, url, refs: new Map() };
}

async function closeEndpoint(deps: ScenarioDeps, state: RunState, companyId: string): Promise<void> {
  await deps.domain.deleteSubscription(companyId, state.subscriptionId).catch(() => undefined);
}

function runSummary(steps: ScenarioStepResult[]): string {
  const expects = steps.filter((s) => s.do === 'expect');
  const held = expects.filter((s) => s.outcome === 'passed').length;
  const broken = steps.find((s) => s.outcome === 'failed' && s.do !== 'expect');
  if (broken) return `stopped at step ${broken.index} (${broken.do}): ${broken.problems[0] ?? broken.summary}`;
  return `${held} of ${expects.length} expectations held`;
}
