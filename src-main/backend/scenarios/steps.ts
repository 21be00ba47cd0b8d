// One step of a scenario: what it does to the service, and a line saying so. An
// `expect` step answers its problems; any other step that cannot be done throws (the
// service's own error message), which stops the run.
import type { ScenarioDeps } from './runner.js';
import type { ScenarioStep } from './schema.js';
import { expectationSummary, judge, type SentDelivery } from './expect.js';
import { RECIPIENT_ACTIONS } from '../domain/lifecycle.js';
import { normalisedFaults } from '../service-api/fault-routes.js';

export interface RunState {
  companyId: string;
  subscriptionId: string;
  inboxId: string | null;
  url: string;
  /** The scenario's document names → document ids. */
  refs: Map<string, string>;
}

type Outcome = { summary: string; problems: string[] };

const STAND_IN = { name: 'Alex Stand-in', email: 'alex@example.com' };

export async function playStep(deps: ScenarioDeps, state: RunState, step: ScenarioStep, settle: () => Promise<void>): Promise<Outcome> {
  switch (step.do) {
    case 'create_document': {
      if (state.refs.has(step.ref)) throw new Error(`a document is already named "${step.ref}" in this scenario`);
      const doc = await deps.domain.createDocument(state.companyId, {
        title: step.title ?? `Scenario document ${step.ref}`,
        recipients: step.recipients ?? [STAND_IN],
        ...(step.metadata ? { metadata: step.metadata } : {}),
      });
      state.refs.set(step.ref, doc.public_id);
      await settle();
      return { summary: `created ${step.ref} (${doc.public_id})`, problems: [] };
    }
    case 'advance_clock':
      await deps.clockControl.advance(step.seconds);
      await settle();
      return { summary: `advanced the clock ${step.seconds} s to ${deps.clockControl.view().now}`, problems: [] };
    case 'set_endpoint': {
      if (!state.inboxId) throw new Error('set_endpoint changes the built-in inbox; this run sends to your own URL');
      const inbox = await deps.receiver.inboxes.update(state.inboxId, { response: step.response });
      return { summary: `the endpoint now answers: ${inbox.response_description}`, problems: [] };
    }
    case 'set_faults': {
      const set = normalisedFaults(step.faults);
      deps.faults.set(state.subscriptionId, set);
      await deps.store.commit();
      const names = Object.keys(set);
      return { summary: names.length ? `faults on: ${names.join(', ')}` : 'faults off', problems: [] };
    }
    case 'expect':
      return { summary: expectationSummary(step), problems: judge(step, await sentSoFar(deps, state), state.refs) };
    default:
      return act(deps, state, step, settle);
  }
}

async function act(deps: ScenarioDeps, state: RunState, step: Extract<ScenarioStep, { document: string }>, settle: () => Promise<void>) {
  const id = state.refs.get(step.document);
  if (!id) throw new Error(`no document is named "${step.document}" in this scenario (create_document it first)`);
  let recipientId: string | undefined;
  if (RECIPIENT_ACTIONS.has(step.do)) {
    const recipients = deps.domain.getDocument(state.companyId, id).recipients;
    const i = step.recipient ?? 0;
    if (i >= recipients.length) throw new Error(`${step.document} has ${recipients.length} recipients; there is no recipient ${i}`);
    recipientId = recipients[i].public_id;
  }
  const doc = await deps.domain.transition(state.companyId, id, step.do, recipientId);
  await settle();
  const who = recipientId ? ` by recipient ${step.recipient ?? 0}` : '';
  return { summary: `${step.do}${who}: ${step.document} is ${doc.status}`, problems: [] };
}

/** Every delivery of this run so far, oldest first, with when its first attempt started. */
async function sentSoFar(deps: ScenarioDeps, state: RunState): Promise<SentDelivery[]> {
  const page = deps.history.listDeliveries({ company_id: state.companyId, subscription_id: state.subscriptionId }, { limit: 1000 });
  const oldestFirst = [...page.data].reverse();
  return Promise.all(
    oldestFirst.map(async (d) => {
      const attempts = d.attempts > 0 ? await deps.history.getAttempts(d.id) : [];
      const first = attempts.find((a) => a.attempt === 1) ?? attempts[0];
      return { ...d, first_attempt_at: first ? Date.parse(first.started_at) : null };
    }),
  );
}
