// The receiver's admission (receiver/admission.ts) as a pure part: open requests per
// inbox, one inbox's share of the memory budget, the budget for all inboxes, and
// tickets that give back exactly what they took, whichever way a request ends.
import { describe, expect, it } from 'vitest';
import { Admission, isRefusal, type Ticket } from '../../../src-main/backend/receiver/admission.js';
import { DEFAULT_LIMITS, type ReceiverLimits } from '../../../src-main/backend/receiver/types.js';

const KIB = 1024;
const limits = (l: Partial<ReceiverLimits>): ReceiverLimits => ({ ...DEFAULT_LIMITS, ...l });

function admitted(a: Admission, inbox: string, declared?: number): Ticket {
  const t = a.admit(inbox, declared);
  if (isRefusal(t)) throw new Error(`refused: ${t.message}`);
  return t;
}

describe('admission', () => {
  it('limits the requests open in one inbox, and frees the slot when one ends', () => {
    const a = new Admission(limits({ maxOpenPerInbox: 2 }), () => 0);
    const one = admitted(a, 'inb_a');
    admitted(a, 'inb_a');
    const third = a.admit('inb_a', 0);
    expect(isRefusal(third) && third.code).toBe('inbox_busy');
    expect(isRefusal(a.admit('inb_b', 0))).toBe(false);
    one.close();
    one.close(); // idempotent: frees one slot, not two
    expect(a.open('inb_a')).toBe(1);
    expect(isRefusal(a.admit('inb_a', 0))).toBe(false);
    expect(isRefusal(a.admit('inb_a', 0))).toBe(true);
  });

  it('gives one inbox a quarter of the budget (at least one body), counting what waits for the disk', () => {
    let queued = 0;
    const a = new Admission(limits({ bodyLimit: 64 * KIB, memoryBudget: 512 * KIB }), (inbox) =>
      inbox === undefined || inbox === 'inb_a' ? queued : 0,
    );
    const t = admitted(a, 'inb_a', 64 * KIB);
    admitted(a, 'inb_a', 64 * KIB);
    expect(a.inFlight('inb_a')).toBe(128 * KIB);
    const refused = a.admit('inb_a', 1);
    expect(isRefusal(refused) && refused.code).toBe('inbox_busy');
    t.settle(); // its body is now a capture waiting for the disk
    queued = 64 * KIB;
    expect(isRefusal(a.admit('inb_a', 1))).toBe(true);
    queued = 0; // written
    expect(isRefusal(a.admit('inb_a', 1))).toBe(false);
    // Other inboxes are not affected by inb_a's share.
    expect(isRefusal(a.admit('inb_b', 64 * KIB))).toBe(false);
  });

  it('refuses any inbox once bodies in flight and queued captures fill the whole budget', () => {
    let queued = 0;
    const a = new Admission(limits({ bodyLimit: 64 * KIB, memoryBudget: 256 * KIB }), (inbox) => (inbox === undefined ? queued : 0));
    for (const inbox of ['inb_a', 'inb_b', 'inb_c']) admitted(a, inbox, 64 * KIB);
    queued = 64 * KIB;
    const refused = a.admit('inb_d', 1);
    expect(isRefusal(refused) && refused.code).toBe('receiver_busy');
    expect(isRefusal(a.admit('inb_d', 0))).toBe(false); // a request with no body takes nothing
  });

  it('reserves a body without a declared length as it arrives, and says why it stopped', () => {
    const a = new Admission(limits({ bodyLimit: 64 * KIB, memoryBudget: 128 * KIB }), () => 0);
    const t = admitted(a, 'inb_a');
    expect(t.grow(16 * KIB)).toBe(true);
    expect(t.grow(64 * KIB)).toBe(true);
    expect(a.inFlight()).toBe(64 * KIB);
    const third = admitted(a, 'inb_c', 32 * KIB);
    const other = admitted(a, 'inb_b');
    expect(other.grow(32 * KIB)).toBe(true);
    expect(other.grow(48 * KIB)).toBe(false);
    expect(other.refusal?.code).toBe('receiver_busy');
    expect(t.grow(64 * KIB + 1)).toBe(false);
    expect(t.refusal?.code).toBe('inbox_busy');
    for (const x of [t, third, other]) x.close();
    expect(a.inFlight()).toBe(0);
    expect(a.open('inb_a') + a.open('inb_b') + a.open('inb_c')).toBe(0);
  });
});
