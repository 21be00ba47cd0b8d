// The document state machine (docs/api.md section 10) as a table: every action from
// every status, what it changes and which events it causes, without a store or HTTP.
import { describe, expect, it } from 'vitest';
import { ACTIONS, allowedActions, apply, isAllowed, RECIPIENT_ACTIONS, type Action } from '../../../src-main/backend/domain/lifecycle.js';
import type { DocumentRecord } from '../../../src-main/backend/store/schema.js';
import type { DocumentStatus, Recipient } from '@shared/api-types.js';

const STATUSES: DocumentStatus[] = ['DRAFT', 'OUT_FOR_SIGNATURE', 'COMPLETED', 'DECLINED', 'EXPIRED', 'VOIDED'];
const AT = '2030-01-01T00:00:00.000Z';

function recipient(id: string, status: Recipient['status'] = 'pending', role: Recipient['role'] = 'signer'): Recipient {
  return { public_id: id, name: id, email: `${id}@example.com`, role, status, completed_at: null };
}

function doc(status: DocumentStatus, recipients: Recipient[] = [recipient('rcp_a'), recipient('rcp_b')]): DocumentRecord {
  return {
    public_id: 'doc_1',
    company_id: 'co_1',
    title: 'Lease',
    status,
    recipients,
    metadata: {},
    created_at: '2029-12-31T00:00:00.000Z',
    updated_at: '2029-12-31T00:00:00.000Z',
  };
}

/** Where each action is allowed from: the contract's table. */
const ALLOWED: Record<Action, DocumentStatus[]> = {
  send: ['DRAFT'],
  view: ['OUT_FOR_SIGNATURE'],
  complete: ['OUT_FOR_SIGNATURE'],
  decline: ['OUT_FOR_SIGNATURE'],
  expire: ['OUT_FOR_SIGNATURE'],
  void: ['DRAFT', 'OUT_FOR_SIGNATURE'],
};

describe('document lifecycle', () => {
  it('allows each action from exactly the statuses of the table, and says why not otherwise', () => {
    expect([...ACTIONS].sort()).toEqual(Object.keys(ALLOWED).sort());
    for (const action of ACTIONS) {
      for (const status of STATUSES) {
        const d = doc(status);
        const refusal = isAllowed(action, d, RECIPIENT_ACTIONS.has(action) ? d.recipients[0] : undefined);
        if (ALLOWED[action].includes(status)) expect(refusal, `${action} from ${status}`).toBeNull();
        else expect(refusal, `${action} from ${status}`).toEqual({ reason: 'document', status });
      }
    }
  });

  it('lets recipient actions act only on pending or viewed recipients', () => {
    for (const action of ['view', 'complete', 'decline'] as const) {
      for (const rs of ['pending', 'viewed'] as const) expect(isAllowed(action, doc('OUT_FOR_SIGNATURE'), recipient('r', rs))).toBeNull();
      for (const rs of ['completed', 'declined'] as const) {
        expect(isAllowed(action, doc('OUT_FOR_SIGNATURE'), recipient('r', rs))).toEqual({
          reason: 'recipient',
          status: 'OUT_FOR_SIGNATURE',
          recipient_status: rs,
        });
      }
    }
  });

  it.each([
    ['send', 'DRAFT', 'OUT_FOR_SIGNATURE', ['document.sent']],
    ['expire', 'OUT_FOR_SIGNATURE', 'EXPIRED', ['document.expired']],
    ['void', 'DRAFT', 'VOIDED', ['document.voided']],
    ['void', 'OUT_FOR_SIGNATURE', 'VOIDED', ['document.voided']],
  ] as const)('%s from %s: the document becomes %s, announcing %j', (action, from, to, events) => {
    const d = doc(from);
    expect(apply(action, d, AT)).toEqual(events);
    expect(d.status).toBe(to);
    expect(d.updated_at).toBe(AT);
    expect(d.recipients.map((r) => r.status)).toEqual(['pending', 'pending']);
  });

  it('records a view on the recipient only', () => {
    const d = doc('OUT_FOR_SIGNATURE');
    expect(apply('view', d, AT, d.recipients[0])).toEqual(['document.viewed']);
    expect(d.status).toBe('OUT_FOR_SIGNATURE');
    expect(d.recipients.map((r) => r.status)).toEqual(['viewed', 'pending']);
  });

  it('completes the document when the last signer completes, and not before', () => {
    const d = doc('OUT_FOR_SIGNATURE', [recipient('rcp_a'), recipient('rcp_cc', 'pending', 'cc' as Recipient['role']), recipient('rcp_b')]);
    expect(apply('complete', d, AT, d.recipients[0])).toEqual(['document.recipient_completed']);
    expect(d.status).toBe('OUT_FOR_SIGNATURE');
    expect(d.recipients[0]).toMatchObject({ status: 'completed', completed_at: AT });
    // Only signers count: the one left who is not a signer does not hold the document back.
    expect(apply('complete', d, AT, d.recipients[2])).toEqual(['document.recipient_completed', 'document.completed']);
    expect(d.status).toBe('COMPLETED');
  });

  it('declines the whole document when one recipient declines', () => {
    const d = doc('OUT_FOR_SIGNATURE');
    expect(apply('decline', d, AT, d.recipients[1])).toEqual(['document.declined']);
    expect(d.status).toBe('DECLINED');
    expect(d.recipients.map((r) => r.status)).toEqual(['pending', 'declined']);
  });

  it('offers a console only the actions that are allowed now', () => {
    expect(allowedActions(doc('DRAFT'))).toEqual({ document: ['send', 'void'], recipients: { rcp_a: [], rcp_b: [] } });
    const out = doc('OUT_FOR_SIGNATURE', [recipient('rcp_a', 'viewed'), recipient('rcp_b', 'completed')]);
    expect(allowedActions(out)).toEqual({
      document: ['expire', 'void'],
      recipients: { rcp_a: ['view', 'complete', 'decline'], rcp_b: [] },
    });
    for (const status of ['COMPLETED', 'DECLINED', 'EXPIRED', 'VOIDED'] as const)
      expect(allowedActions(doc(status))).toEqual({ document: [], recipients: { rcp_a: [], rcp_b: [] } });
  });
});
