// Documents (docs/api.md sections 8 and 10): every transition allowed and refused,
// remind's recipients, PUT's rules, and the events each change emits.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBackend, type TestBackend } from '../helpers/backend.js';

let t: TestBackend;
beforeAll(async () => {
  t = await startTestBackend();
});
afterAll(() => t.destroy());

const recipients = [
  { name: 'Ann Signer', email: 'ann@example.com' },
  { name: 'Bob Signer', email: 'bob@example.com' },
];

async function newDoc(extra: Record<string, unknown> = {}) {
  const res = await t.api('POST', '/v2/test_helpers/documents', { title: 'Lease', recipients, ...extra });
  expect(res.status).toBe(201);
  return res.body;
}
const act = (id: string, action: string, recipient_id?: string) =>
  t.api('POST', `/v2/test_helpers/documents/${id}/${action}`, recipient_id ? { recipient_id } : undefined);

function eventTypes(docId: string): string[] {
  const company = t.backend.store.companies.all()[0].id;
  return t.backend.history.eventsForDocument(company, docId).map((e) => e.type);
}

describe('document shape', () => {
  it('matches the contract, with the app URL', async () => {
    const doc = await newDoc({ metadata: { deal: 42 } });
    expect(doc.public_id).toMatch(/^doc_/);
    expect(doc.status).toBe('DRAFT');
    expect(doc.recipients).toHaveLength(2);
    expect(doc.recipients[0]).toEqual({
      public_id: expect.stringMatching(/^rcp_/),
      name: 'Ann Signer',
      email: 'ann@example.com',
      role: 'signer',
      status: 'pending',
      completed_at: null,
    });
    expect(doc.metadata).toEqual({ deal: 42 });
    expect(doc.url).toBe(`${t.urls.app_url}/documents?d=${encodeURIComponent(doc.public_id)}`);
    expect(Object.keys(doc).sort()).toEqual(['created_at', 'metadata', 'public_id', 'recipients', 'status', 'title', 'updated_at', 'url']);
    expect((await t.api('GET', `/documents/${doc.public_id}`)).body).toEqual(doc);
    expect(eventTypes(doc.public_id)).toEqual(['document.created']);
  });
});

describe('lifecycle', () => {
  it('send, view, complete by every signer → COMPLETED with the right events', async () => {
    const doc = await newDoc();
    const [a, b] = doc.recipients.map((r: { public_id: string }) => r.public_id);
    expect((await act(doc.public_id, 'send')).body.status).toBe('OUT_FOR_SIGNATURE');
    expect((await act(doc.public_id, 'view', a)).body.recipients[0].status).toBe('viewed');
    const one = await act(doc.public_id, 'complete', a);
    expect(one.body.status).toBe('OUT_FOR_SIGNATURE');
    expect(one.body.recipients[0].status).toBe('completed');
    expect(one.body.recipients[0].completed_at).toEqual(expect.any(String));
    const two = await act(doc.public_id, 'complete', b);
    expect(two.body.status).toBe('COMPLETED');
    expect(eventTypes(doc.public_id)).toEqual([
      'document.created',
      'document.sent',
      'document.viewed',
      'document.recipient_completed',
      'document.recipient_completed',
      'document.completed',
    ]);
  });

  it('decline → DECLINED; expire → EXPIRED; void from DRAFT and OUT_FOR_SIGNATURE', async () => {
    const d1 = await newDoc();
    await act(d1.public_id, 'send');
    expect((await act(d1.public_id, 'decline', d1.recipients[1].public_id)).body.status).toBe('DECLINED');
    expect(eventTypes(d1.public_id).at(-1)).toBe('document.declined');
    const d2 = await newDoc();
    await act(d2.public_id, 'send');
    expect((await act(d2.public_id, 'expire')).body.status).toBe('EXPIRED');
    expect(eventTypes(d2.public_id).at(-1)).toBe('document.expired');
    const d3 = await newDoc();
    expect((await act(d3.public_id, 'void')).body.status).toBe('VOIDED');
    const d4 = await newDoc();
    await act(d4.public_id, 'send');
    expect((await act(d4.public_id, 'void')).body.status).toBe('VOIDED');
    expect(eventTypes(d4.public_id).at(-1)).toBe('document.voided');
  });

  it('refuses every transition not allowed from the current status with 409 and details.status', async () => {
    const draft = await newDoc();
    const r = draft.recipients[0].public_id;
    for (const [action, rid] of [
      ['view', r],
      ['complete', r],
      ['decline', r],
      ['expire', undefined],
    ] as const) {
      const res = await act(draft.public_id, action, rid);
      expect(res.status, action).toBe(409);
      expect(res.body.error).toMatchObject({ code: 'invalid_document_status', details: { status: 'DRAFT' } });
    }
    const done = await newDoc();
    await act(done.public_id, 'send');
    await act(done.public_id, 'void');
    for (const action of ['send', 'expire', 'void']) {
      const res = await act(done.public_id, action);
      expect(res.status, action).toBe(409);
      expect(res.body.error.details.status).toBe('VOIDED');
    }
    const sent = await newDoc();
    await act(sent.public_id, 'send');
    expect((await act(sent.public_id, 'send')).status).toBe(409);
    // A refused transition changes nothing and emits nothing.
    expect(eventTypes(draft.public_id)).toEqual(['document.created']);
    expect((await t.api('GET', `/documents/${draft.public_id}`)).body.status).toBe('DRAFT');
  });

  it('recipient actions need a recipient of this document, in a state that allows them', async () => {
    const doc = await newDoc();
    await act(doc.public_id, 'send');
    const missing = await act(doc.public_id, 'complete');
    expect(missing.status).toBe(422);
    expect(missing.body.error.details.fields[0].field).toBe('recipient_id');
    expect((await act(doc.public_id, 'complete', 'rcp_nobody')).status).toBe(422);
    await act(doc.public_id, 'complete', doc.recipients[0].public_id);
    const again = await act(doc.public_id, 'complete', doc.recipients[0].public_id);
    expect(again.status).toBe(409);
    expect(again.body.error.details).toMatchObject({ status: 'OUT_FOR_SIGNATURE', recipient_status: 'completed' });
    expect((await t.api('POST', `/v2/test_helpers/documents/${doc.public_id}/explode`)).status).toBe(404);
  });
});

describe('remind', () => {
  it('is refused outside OUT_FOR_SIGNATURE', async () => {
    const doc = await newDoc();
    const res = await t.api('POST', `/documents/${doc.public_id}/remind`);
    expect(res.status).toBe(409);
    expect(res.body.error.details.status).toBe('DRAFT');
  });
  it('notifies every recipient who has not completed, and emits document.reminded', async () => {
    const doc = await newDoc();
    const [a, b] = doc.recipients.map((r: { public_id: string }) => r.public_id);
    await act(doc.public_id, 'send');
    await act(doc.public_id, 'complete', a);
    const res = await t.api('POST', `/documents/${doc.public_id}/remind`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ document_id: doc.public_id, reminded: [b], reminded_at: expect.any(String) });
    expect(Number.isNaN(Date.parse(res.body.reminded_at))).toBe(false);
    const outbox = t.backend.domain.listNotifications(t.backend.store.companies.all()[0].id, doc.public_id);
    expect(outbox.filter((n) => n.kind === 'reminder').map((n) => n.recipient_id)).toEqual([b]);
    expect(outbox.filter((n) => n.kind === 'signature_request')).toHaveLength(2);
    expect(eventTypes(doc.public_id).at(-1)).toBe('document.reminded');
  });
});

describe('PUT', () => {
  it('updates title and replaces metadata, emitting document.updated', async () => {
    const doc = await newDoc({ metadata: { a: 1, b: 2 } });
    const res = await t.api('PUT', `/documents/${doc.public_id}`, { title: 'New title', metadata: { c: 3 } });
    expect(res.status).toBe(200);
    expect(res.body.title).toBe('New title');
    expect(res.body.metadata).toEqual({ c: 3 });
    expect(Date.parse(res.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(doc.updated_at));
    expect(eventTypes(doc.public_id).at(-1)).toBe('document.updated');
  });
  it('rejects an empty body, other fields (read-only ones too), and bad values, naming the field', async () => {
    const doc = await newDoc();
    const cases: [unknown, string][] = [
      [{}, 'body'],
      [{ status: 'COMPLETED' }, 'status'],
      [{ public_id: 'doc_x' }, 'public_id'],
      [{ title: 'ok', color: 'red' }, 'color'],
      [{ title: '' }, 'title'],
      [{ title: 'x'.repeat(256) }, 'title'],
      [{ title: 5 }, 'title'],
      [{ metadata: [] }, 'metadata'],
      [{ metadata: 'x' }, 'metadata'],
      [{ metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i])) }, 'metadata'],
      [{ metadata: { ['k'.repeat(41)]: 1 } }, 'metadata'],
    ];
    for (const [body, field] of cases) {
      const res = await t.api('PUT', `/documents/${doc.public_id}`, body);
      expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(422);
      expect(res.body.error.details.fields.map((f: { field: string }) => f.field)).toContain(field);
    }
    const empty = await t.api('PUT', `/documents/${doc.public_id}`);
    expect(empty.status).toBe(422);
    expect((await t.api('GET', `/documents/${doc.public_id}`)).body.title).toBe('Lease');
    expect(eventTypes(doc.public_id)).toEqual(['document.created']);
  });
  it('accepts exactly 50 keys of 40 characters', async () => {
    const doc = await newDoc();
    const metadata = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`${i}`.padStart(40, 'k'), i]));
    const res = await t.api('PUT', `/documents/${doc.public_id}`, { metadata });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.metadata)).toHaveLength(50);
  });
  it('stores __proto__ and constructor keys as plain data', async () => {
    const doc = await newDoc();
    const raw = '{"metadata":{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}}';
    const res = await t.api('PUT', `/documents/${doc.public_id}`, raw);
    expect(res.status).toBe(200);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const again = await t.api('GET', `/documents/${doc.public_id}`);
    expect(JSON.parse(again.text).metadata).toEqual(JSON.parse(raw).metadata);
    expect(Object.keys(again.body.metadata)).toEqual(['__proto__', 'constructor']);
    expect((await t.api('PUT', `/documents/${doc.public_id}`, { title: 'still fine' })).status).toBe(200);
  });
  it('refuses deeply nested and oversized metadata before it reaches the store', async () => {
    const doc = await newDoc();
    const deep = '{"metadata":{"a":' + '['.repeat(5000) + ']'.repeat(5000) + '}}';
    const res = await t.api('PUT', `/documents/${doc.public_id}`, deep);
    expect(res.status).toBe(422);
    expect(res.body.error.details.fields[0].field).toBe('metadata');
    const big = await t.api('PUT', `/documents/${doc.public_id}`, { metadata: { blob: 'x'.repeat(20000) } });
    expect(big.status).toBe(422);
    expect((await t.api('PUT', `/documents/${doc.public_id}`, { title: 'writes still work' })).status).toBe(200);
  });
});
