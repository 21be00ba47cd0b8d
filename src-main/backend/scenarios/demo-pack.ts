// Loading a demo pack into the running service, and writing one from it. A pack that
// leaves the machine carries no secret, and recipients' names and emails are replaced
// by stand-ins unless the user asks to keep them.
import type { DemoPack } from './pack-schema.js';
import { runScenario, type ScenarioDeps } from './runner.js';
import { playStep, type RunState } from './steps.js';
import type { PackLoad } from '@shared/scenario-types.js';

export type { PackLoad };

type SeedStep = NonNullable<DemoPack['seed']>[number];

export async function loadPack(deps: ScenarioDeps, companyId: string, pack: DemoPack): Promise<PackLoad> {
  const inboxIds: string[] = [];
  for (const inbox of pack.inboxes ?? [])
    inboxIds.push((await deps.receiver.inboxes.create({ name: inbox.name, ...(inbox.response ? { response: inbox.response } : {}) })).id);
  // The seed is played with no subscription of its own listening: nothing to settle.
  const state: RunState = { companyId, subscriptionId: '', inboxId: null, url: '', refs: new Map() };
  for (const step of pack.seed ?? []) {
    const { problems } = await playStep(deps, state, step, async () => undefined);
    if (problems.length) throw new Error(problems.join('; '));
  }
  const run = pack.scenario ? await runScenario(deps, { companyId, scenario: pack.scenario, keepEndpoint: true }) : null;
  return {
    object: 'demo_pack_load',
    name: pack.name,
    inbox_ids: inboxIds,
    document_ids: [...state.refs.values(), ...Object.values(run?.documents ?? {})],
    run,
  };
}

/** The actions that bring a new document to where this one is, recipient by recipient. */
function playTo(ref: string, doc: { status: string; recipients: readonly { status: string }[] }): SeedStep[] {
  if (doc.status === 'DRAFT') return [];
  if (doc.status === 'VOIDED') return [{ do: 'void', document: ref }];
  const steps: SeedStep[] = [{ do: 'send', document: ref }];
  doc.recipients.forEach((r, i) => {
    if (r.status === 'viewed') steps.push({ do: 'view', document: ref, recipient: i });
    if (r.status === 'completed') steps.push({ do: 'complete', document: ref, recipient: i });
  });
  const declined = doc.recipients.findIndex((r) => r.status === 'declined');
  if (declined >= 0) steps.push({ do: 'decline', document: ref, recipient: declined });
  if (doc.status === 'EXPIRED') steps.push({ do: 'expire', document: ref });
  if (doc.status === 'VOIDED') steps.push({ do: 'void', document: ref });
  return steps;
}

/** A pack of this company's documents and the receiver's inboxes (their answers, never a secret). */
export function exportPack(deps: ScenarioDeps, companyId: string, opts: { name: string; keepPeople: boolean }): DemoPack {
  const docs = [...deps.domain.listDocuments(companyId, { limit: 500 }).data].reverse();
  const seed: SeedStep[] = [];
  docs.forEach((d, n) => {
    const ref = `doc-${n + 1}`;
    const recipients = d.recipients.map((r, i) =>
      opts.keepPeople
        ? { name: r.name, email: r.email }
        : { name: `Recipient ${n + 1}.${i + 1}`, email: `recipient-${n + 1}-${i + 1}@example.com` },
    );
    seed.push({
      do: 'create_document',
      ref,
      title: d.title,
      recipients,
      ...(Object.keys(d.metadata).length ? { metadata: d.metadata } : {}),
    });
    seed.push(...playTo(ref, d));
  });
  const inboxes = deps.receiver.inboxes.list().map((i) => ({ name: i.name, response: i.response }));
  return { name: opts.name, description: `Exported from Countersign: ${docs.length} documents, ${inboxes.length} inboxes.`, inboxes, seed };
}
