// Each verdict reason, produced over real HTTP by a request signed with the reference
// Standard Webhooks library (the `standardwebhooks` package) and then changed in ONE
// way from a baseline that verifies.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { generateSecret } from '../../../src-main/backend/delivery/signing.js';
import { send, startReceiver, type ReceiverHarness } from './harness.js';
import type { VerdictReason } from '@shared/receiver-types.js';

const COMPANY = 'co_test';
const BODY = JSON.stringify({
  id: 'evt_1',
  type: 'document.completed',
  timestamp: '2025-01-01T00:00:00.000Z',
  data: { document: { public_id: 'doc_1' } },
});
const MSG = 'msg_sentByTheLocalEngine';
const S = generateSecret(); // the linked subscription's secret
const OTHER = generateSecret();

let h: ReceiverHarness;
const inbox: Record<'linked' | 'pastedOther' | 'pastedRight' | 'none' | 'badFormat', string> = {} as never;

function signed(opts: { secret?: string; id?: string; ts?: number; body?: string; signBody?: string; sendTs?: number } = {}) {
  const ts = opts.ts ?? Math.floor(Date.now() / 1000);
  const id = opts.id ?? MSG;
  const body = opts.body ?? BODY;
  const signature = new Webhook(opts.secret ?? S).sign(id, new Date(ts * 1000), opts.signBody ?? body);
  return { body, headers: { 'webhook-id': id, 'webhook-timestamp': String(opts.sendTs ?? ts), 'webhook-signature': signature } };
}

async function verdictOf(inboxId: string, req: { body: string; headers: Record<string, string> }) {
  const r = await send(h, `/in/${inboxId}`, req.body, req.headers);
  expect(r.status).toBe(200);
  expect(r.capture).toBeDefined();
  return r.capture!;
}

beforeAll(async () => {
  h = await startReceiver();
  const mk = async (name: string, secret?: string) => (await h.receiver.inboxes.create({ name, secret })).id;
  inbox.linked = await mk('linked');
  inbox.pastedOther = await mk('pasted other', OTHER);
  inbox.pastedRight = await mk('pasted right', S);
  inbox.none = await mk('none');
  inbox.badFormat = await mk('bad format', 'my-password');
  // A local subscription pointing at the "linked" inbox (spelled with localhost, and a
  // trailing slash, to show the link is by address, not by exact text).
  const url = `${h.base.replace('127.0.0.1', 'localhost')}/in/${inbox.linked}/`;
  h.store.subscriptions.insert({
    public_id: 'wh_linked',
    company_id: COMPANY,
    url,
    type: 'all',
    status: 'enabled',
    secret_key: S,
    created_at: new Date().toISOString(),
  });
  // What the local engine logs when it makes a delivery: the event body and the delivery.
  h.history.recordEvent(
    {
      id: 'evt_1',
      company_id: COMPANY,
      type: 'document.completed',
      timestamp: new Date().toISOString(),
      document_id: 'doc_1',
      subscription_id: null,
    },
    BODY,
  );
  h.history.recordDelivery({
    id: MSG,
    event_id: 'evt_1',
    event_type: 'document.completed',
    subscription_id: 'wh_linked',
    company_id: COMPANY,
    document_id: 'doc_1',
    url,
    status: 'pending',
    attempts: 0,
    created_at: new Date().toISOString(),
    last_attempt_at: null,
    last_status_code: null,
    last_error: null,
    last_duration_ms: null,
    next_attempt_at: null,
  });
});

afterAll(() => h.stop());

describe('verdicts', () => {
  it("baseline: a delivery signed with the linked subscription's secret is verified", async () => {
    const c = await verdictOf(inbox.linked, signed());
    expect(c.verdict).toMatchObject({ reason: 'verified', secret_source: 'linked', subscription_id: 'wh_linked' });
    expect(c.verdict!.secret_fingerprint).toMatch(/^[0-9a-f]{8}$/);
  });

  it('a pasted secret verifies too', async () => {
    const c = await verdictOf(inbox.pastedRight, signed());
    expect(c.verdict).toMatchObject({ reason: 'verified', secret_source: 'pasted', subscription_id: null });
  });

  const cases: [string, keyof typeof inbox, () => { body: string; headers: Record<string, string> }, VerdictReason][] = [
    ['signature headers removed', 'linked', () => ({ body: BODY, headers: {} }), 'no_signature_headers'],
    [
      'webhook-signature removed (the others kept)',
      'linked',
      () => {
        const r = signed();
        const { 'webhook-signature': _drop, ...rest } = r.headers;
        return { body: r.body, headers: rest };
      },
      'malformed_signature_headers',
    ],
    ['sent to an inbox with no secret and no linked subscription', 'none', () => signed(), 'unknown_secret'],
    ['sent to an inbox whose pasted secret is not whsec_…', 'badFormat', () => signed(), 'invalid_secret_format'],
    ['sent to an inbox whose pasted secret is another one (sender known locally)', 'pastedOther', () => signed(), 'wrong_secret'],
    [
      'body changed after signing (one character)',
      'linked',
      () => signed({ signBody: BODY, body: BODY.replace('doc_1', 'doc_2') }),
      'body_modified',
    ],
    [
      'webhook-timestamp changed after signing',
      'linked',
      () => {
        const ts = Math.floor(Date.now() / 1000);
        return signed({ ts, sendTs: ts - 1 });
      },
      'signature_mismatch',
    ],
    [
      'signed with another secret by a sender the delivery log does not know',
      'pastedOther',
      () => signed({ id: 'msg_fromElsewhere', secret: S }),
      'signature_mismatch',
    ],
    [
      'signed 10 minutes ago (valid signature, old timestamp)',
      'linked',
      () => signed({ ts: Math.floor(Date.now() / 1000) - 600 }),
      'timestamp_outside_tolerance',
    ],
    ['signed 10 minutes in the future', 'linked', () => signed({ ts: Math.floor(Date.now() / 1000) + 600 }), 'timestamp_outside_tolerance'],
  ];

  for (const [what, box, make, reason] of cases) {
    it(`${what} → ${reason}`, async () => {
      const c = await verdictOf(inbox[box], make());
      expect(c.verdict?.reason).toBe(reason);
      expect(c.verdict?.message.length).toBeGreaterThan(10);
    });
  }

  it('wrong_secret names the sending subscription and both fingerprints, never a secret', async () => {
    const c = await verdictOf(inbox.pastedOther, signed());
    expect(c.verdict!.message).toContain('wh_linked');
    expect(JSON.stringify(c.verdict)).not.toContain(S.slice(6));
    expect(JSON.stringify(c.verdict)).not.toContain(OTHER.slice(6));
  });

  it('a tampered body from an unknown sender is the honest signature_mismatch, not body_modified', async () => {
    const c = await verdictOf(inbox.linked, signed({ id: 'msg_unknown', signBody: BODY, body: BODY + ' ' }));
    expect(c.verdict!.reason).toBe('signature_mismatch');
    expect(c.verdict!.message).toMatch(/different secret, or the body was changed/);
  });

  it('a webhook-id seen before in the same inbox is a duplicate; in another inbox it is not', async () => {
    const req = signed({ id: 'msg_dup' });
    const first = await verdictOf(inbox.linked, req);
    const second = await verdictOf(inbox.linked, req);
    const elsewhere = await verdictOf(inbox.pastedRight, req);
    expect([first.duplicate, second.duplicate, elsewhere.duplicate]).toEqual([false, true, false]);
    expect([first.attempt_for_id, second.attempt_for_id]).toEqual([1, 2]);
    expect(second.verdict!.reason).toBe('verified');
  });

  it('keeps the raw bytes, header case and order as received', async () => {
    const weird = '{"b":1,  "a":"\u00e9"}';
    const c = await verdictOf(inbox.linked, { body: weird, headers: { 'X-Custom-Header': 'One' } });
    expect(c.body.equals(Buffer.from(weird, 'utf8'))).toBe(true);
    expect(c.headers).toContainEqual(['X-Custom-Header', 'One']);
    expect(c.size).toBe(Buffer.byteLength(weird));
  });
});
