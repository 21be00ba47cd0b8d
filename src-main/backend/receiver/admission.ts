// Who may come in, and how much each may hold. Guards against a sender (no credentials
// needed: an inbox URL is public through the tunnel) exhausting the process's memory or
// an inbox's slots: every request to an inbox holds a ticket from arrival until its
// answer is over; the body it is sending is reserved against the receiver's memory
// budget (together with the captures still waiting for the disk), and so is its inbox's
// share of it. What does not fit is refused at once with 503 and Retry-After, so the
// sender backs off; nothing waits in an unbounded buffer.
import { inboxShare, type ReceiverLimits } from './types.js';

/** Seconds a refused sender is asked to wait before it tries again. */
export const RETRY_AFTER_S = 1;

export interface Refusal {
  code: 'inbox_busy' | 'receiver_busy';
  message: string;
}

/** One admitted request: its slot in the inbox and the body bytes it holds. */
export interface Ticket {
  /** The body has reached `total` bytes: true if they fit (and are now reserved), false if over the budget. */
  grow(total: number): boolean;
  /** Why the last grow() was refused. */
  readonly refusal: Refusal | undefined;
  /** The body is no longer held by the request (kept as a capture, or dropped). */
  settle(): void;
  /** The request is over (answered or gone): its slot is free. Idempotent. */
  close(): void;
}

interface InboxUse {
  open: number;
  inFlight: number;
}

export class Admission {
  private inFlightTotal = 0;
  private readonly perInbox = new Map<string, InboxUse>();

  /** `queued(inbox?)`: bytes of captures waiting for the disk, for one inbox or all. */
  constructor(
    private readonly limits: ReceiverLimits,
    private readonly queued: (inboxId?: string) => number,
  ) {}

  /** Bytes of bodies being received now (all inboxes, or one). */
  inFlight(inboxId?: string): number {
    return inboxId === undefined ? this.inFlightTotal : (this.perInbox.get(inboxId)?.inFlight ?? 0);
  }

  /** Requests open now in an inbox. */
  open(inboxId: string): number {
    return this.perInbox.get(inboxId)?.open ?? 0;
  }

  /** Admits a request whose body declares `declared` bytes (undefined: not said, e.g. chunked), or says why not. */
  admit(inboxId: string, declared: number | undefined): Ticket | Refusal {
    const use = this.perInbox.get(inboxId) ?? { open: 0, inFlight: 0 };
    if (use.open >= this.limits.maxOpenPerInbox) {
      return { code: 'inbox_busy', message: `This inbox already has ${use.open} requests open; try again shortly.` };
    }
    const reserve = Math.min(declared ?? 0, this.limits.bodyLimit);
    const refusal = this.fits(inboxId, use, reserve);
    if (refusal) return refusal;
    this.perInbox.set(inboxId, use);
    use.open++;
    this.take(use, reserve);
    return this.ticket(inboxId, use, reserve);
  }

  private fits(inboxId: string, use: InboxUse, more: number): Refusal | null {
    if (use.inFlight + this.queued(inboxId) + more > inboxShare(this.limits)) {
      return { code: 'inbox_busy', message: 'This inbox is receiving faster than its captures can be kept; try again shortly.' };
    }
    if (this.inFlightTotal + this.queued() + more > this.limits.memoryBudget) {
      return { code: 'receiver_busy', message: 'The receiver is receiving faster than it can keep captures; try again shortly.' };
    }
    return null;
  }

  private take(use: InboxUse, n: number): void {
    use.inFlight += n;
    this.inFlightTotal += n;
  }

  private ticket(inboxId: string, use: InboxUse, reserved: number): Ticket {
    let held = reserved;
    let closed = false;
    const settle = () => {
      this.take(use, -held);
      held = 0;
    };
    const t: { -readonly [K in keyof Ticket]: Ticket[K] } = {
      refusal: undefined,
      grow: (total) => {
        if (closed || total <= held) return !closed;
        t.refusal = this.fits(inboxId, use, total - held) ?? undefined;
        if (t.refusal) return false;
        this.take(use, total - held);
        held = total;
        return true;
      },
      settle,
      close: () => {
        if (closed) return;
        closed = true;
        settle();
        use.open--;
        if (use.open === 0 && use.inFlight === 0) this.perInbox.delete(inboxId);
      },
    };
    return t;
  }
}

export const isRefusal = (x: Ticket | Refusal): x is Refusal => 'code' in x;
