// The requests the conformance scorecard sends: realistic document events, signed the
// way the delivery engine signs them (Standard Webhooks), and the deliberately wrong
// variants (no signature, another secret, a changed byte, an old or future timestamp,
// several signatures). Pure: ids, the time and the secrets come in.
import { newId } from '../ids.js';
import { signPayload, USER_AGENT } from '../delivery/signing.js';
import { generateSecret } from '../delivery/secret-generate.js';

/** One request: a delivery (its webhook-id) and, for a repeat, the same id again. */
export interface Probe {
  deliveryId: string;
  eventId: string;
  eventType: string;
  documentId: string;
  body: string;
  headers: Record<string, string>;
}

export interface ProbeKit {
  secret: string;
  /** Another valid secret, which the endpoint does not know. */
  otherSecret: string;
  /** Unix seconds now (the real time: the endpoint judges timestamps by its own clock). */
  now: number;
  appUrl: string;
}

export function probeKit(secret: string, nowMs: number, appUrl: string): ProbeKit {
  return { secret, otherSecret: generateSecret(), now: Math.floor(nowMs / 1000), appUrl };
}

export const CHANGED_TITLE = 'Lease agreement';

interface DocInput {
  id: string;
  status: string;
  signed: boolean;
  at: string;
}

function documentData(kit: ProbeKit, d: DocInput): Record<string, unknown> {
  return {
    document: {
      public_id: d.id,
      title: `${CHANGED_TITLE}, 12 Harbour Street`,
      status: d.status,
      recipients: [
        {
          public_id: `rcp_${d.id.slice(4)}`,
          name: 'Ann Example',
          email: 'ann@example.com',
          role: 'signer',
          status: d.signed ? 'completed' : 'pending',
          completed_at: d.signed ? d.at : null,
        },
      ],
      metadata: { check: 'countersign' },
      url: `${kit.appUrl}/documents?d=${d.id}`,
      created_at: d.at,
      updated_at: d.at,
    },
  };
}

const STATUS_AFTER: Record<string, string> = {
  'document.created': 'draft',
  'document.sent': 'sent',
  'document.viewed': 'sent',
  'document.recipient_completed': 'sent',
  'document.completed': 'completed',
};

export interface EventInput {
  type: string;
  documentId?: string;
  /** Fields the service may add one day, at the top level and in the document. */
  extra?: boolean;
}

/** A realistic event body for `type`, as the outbox writes them: {id, type, timestamp, data}. */
export function eventBody(kit: ProbeKit, input: EventInput): { eventId: string; documentId: string; body: string } {
  const eventId = newId('evt');
  const documentId = input.documentId ?? newId('doc');
  const at = new Date(kit.now * 1000).toISOString();
  const status = STATUS_AFTER[input.type] ?? 'completed';
  const data = documentData(kit, { id: documentId, status, signed: status === 'completed', at });
  if (input.extra) Object.assign(data.document as object, { signing_order: 'parallel', branding: { theme: 'harbour' } });
  const event = {
    id: eventId,
    type: input.type,
    timestamp: at,
    data,
    ...(input.extra ? { api_version: '2027-01-01', livemode: false } : {}),
  };
  return { eventId, documentId, body: JSON.stringify(event) };
}

export type Signing =
  | { kind: 'good' }
  | { kind: 'none' }
  | { kind: 'other_secret' }
  | { kind: 'changed_body' }
  | { kind: 'timestamp'; offsetSeconds: number }
  | { kind: 'rotated' };

/** The three Standard Webhooks headers for `body`, made as `signing` says. */
function headersFor(kit: ProbeKit, deliveryId: string, signedBody: string, signing: Signing): Record<string, string> {
  const base = { 'content-type': 'application/json', 'user-agent': USER_AGENT };
  if (signing.kind === 'none') return base;
  const timestamp = kit.now + (signing.kind === 'timestamp' ? signing.offsetSeconds : 0);
  const sign = (secret: string) => signPayload({ secret, msgId: deliveryId, timestamp, body: signedBody });
  const signature =
    signing.kind === 'other_secret'
      ? sign(kit.otherSecret)
      : signing.kind === 'rotated'
        ? `${sign(kit.otherSecret)} ${sign(kit.secret)}`
        : sign(kit.secret);
  return { ...base, 'webhook-id': deliveryId, 'webhook-timestamp': String(timestamp), 'webhook-signature': signature };
}

/** One byte changed: the title's first letter lower-cased (still valid JSON, so only the signature can tell). */
export function changeOneByte(body: string): string {
  const at = body.indexOf(`"${CHANGED_TITLE}`) + 1;
  return body.slice(0, at) + body[at].toLowerCase() + body.slice(at + 1);
}

/** A new delivery of a new event. */
export function probe(kit: ProbeKit, event: EventInput, signing: Signing = { kind: 'good' }): Probe {
  const { eventId, documentId, body } = eventBody(kit, event);
  const deliveryId = newId('msg');
  const headers = headersFor(kit, deliveryId, body, signing);
  const sent = signing.kind === 'changed_body' ? changeOneByte(body) : body;
  return { deliveryId, eventId, eventType: event.type, documentId, body: sent, headers };
}

/** The same delivery again (a retry or a duplicate): same webhook-id and body, signed afresh. */
export function repeat(kit: ProbeKit, p: Probe): Probe {
  return { ...p, headers: headersFor(kit, p.deliveryId, p.body, { kind: 'good' }) };
}
