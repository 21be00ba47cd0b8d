// `countersign trigger <event-type>`: makes a document on the service and plays it through
// the test helpers until it produces that event (what `stripe trigger` does), so a
// `countersign listen` or any subscription sees a real delivery. `--set field=value`
// changes the document it makes. Local service only: the real service has no test helpers.
import { defineCommand } from '../define.js';
import { EXIT, usageError } from '../exit-codes.js';
import { resolveTarget, withTargetOptions, type Target, type TargetOptions } from '../target.js';

interface TriggerOptions extends TargetOptions {
  set?: string[];
}

interface Doc {
  public_id: string;
  recipients: { public_id: string }[];
}

/** The steps after the document is made (which itself is document.created), per event type. */
const PLAYS: Record<string, string[]> = {
  'document.created': [],
  'document.sent': ['send'],
  'document.viewed': ['send', 'view'],
  'document.recipient_completed': ['send', 'complete'],
  'document.completed': ['send', 'complete', 'complete'],
  'document.declined': ['send', 'decline'],
  'document.expired': ['send', 'expire'],
  'document.voided': ['send', 'void'],
  'document.updated': ['update'],
  'document.reminded': ['send', 'remind'],
};

export const TRIGGER_FIELDS = [
  'title',
  'metadata.<key>',
  'recipient.name',
  'recipient.email',
  'second_recipient.name',
  'second_recipient.email',
];

/** The document to make: two recipients (so "one recipient completed" is not "completed"), with --set applied. */
export function documentInput(sets: string[]) {
  const input = {
    title: 'Triggered by countersign',
    recipients: [
      { name: 'Ann Example', email: 'ann@example.com' },
      { name: 'Bo Example', email: 'bo@example.com' },
    ],
    metadata: {} as Record<string, string>,
  };
  for (const s of sets) {
    const eq = s.indexOf('=');
    if (eq <= 0) throw usageError(`--set takes field=value (got "${s}")`);
    const [field, value] = [s.slice(0, eq), s.slice(eq + 1)];
    const m = /^(recipient|second_recipient)\.(name|email)$/.exec(field);
    if (field === 'title') input.title = value;
    else if (field.startsWith('metadata.') && field.length > 9) input.metadata[field.slice(9)] = value;
    else if (m) input.recipients[m[1] === 'recipient' ? 0 : 1][m[2] as 'name' | 'email'] = value;
    else throw usageError(`--set: unknown field "${field}" (known: ${TRIGGER_FIELDS.join(', ')})`);
  }
  return input;
}

async function play(target: Target, type: string, sets: string[]) {
  const input = documentInput(sets);
  const doc = await target.call<Doc>('POST', '/v2/test_helpers/documents', {
    title: input.title,
    recipients: input.recipients,
    ...(Object.keys(input.metadata).length ? { metadata: input.metadata } : {}),
  });
  const steps = ['create'];
  let completed = 0;
  for (const step of PLAYS[type]) {
    const helper = `/v2/test_helpers/documents/${doc.public_id}`;
    if (step === 'update') await target.call('PUT', `/documents/${doc.public_id}`, { title: `${input.title} (updated)` });
    else if (step === 'remind') await target.call('POST', `/documents/${doc.public_id}/remind`);
    else if (step === 'complete') await target.call('POST', `${helper}/complete`, { recipient_id: doc.recipients[completed++].public_id });
    else if (step === 'view' || step === 'decline')
      await target.call('POST', `${helper}/${step}`, { recipient_id: doc.recipients[0].public_id });
    else await target.call('POST', `${helper}/${step}`);
    steps.push(step);
  }
  return { document_id: doc.public_id, steps };
}

export const triggerCommand = defineCommand<TriggerOptions>(
  (cmd) =>
    withTargetOptions(
      cmd
        .name('trigger')
        .summary('make a document and play it until it produces an event')
        .description(
          `Make a document on the local service and play it through the test helpers until it produces <event-type> ` +
            `(with the events before it: a completed document was created and sent first). Event types: ${Object.keys(PLAYS).join(', ')}.`,
        )
        .argument('<event-type>', 'the event to produce, e.g. document.completed')
        .option(
          '--set <field=value>',
          `change the document: ${TRIGGER_FIELDS.join(', ')} (repeatable)`,
          (v: string, all: string[] = []) => [...all, v],
        ),
    ).addHelpText('after', '\nExample:\n  countersign trigger document.completed --set title="Lease 42" --set metadata.crm_id=7\n'),
  async ({ out }, [type], opts) => {
    if (!(type in PLAYS)) {
      const hint = type === 'webhook.test' ? ' (send one with POST /v2/webhooks/{id}/test)' : '';
      throw usageError(`cannot trigger "${type}"${hint}; known: ${Object.keys(PLAYS).join(', ')}`);
    }
    const sets = opts.set ?? [];
    documentInput(sets); // refuse a bad --set before anything is made
    const target = await resolveTarget(opts);
    out.note(`Using ${target.description}`);
    if (target.source === 'temporary') out.note('No running Countersign found: the event goes to a temporary one, where nobody listens.');
    try {
      const result = await play(target, type, sets);
      out.result({ event_type: type, ...result }, () => `Triggered ${type} on ${result.document_id} (${result.steps.join(' → ')})`);
      return EXIT.ok;
    } finally {
      await target.close();
    }
  },
);
