import type { Change } from '@shared/api-types.js';
// Turns "a delivery failed for good" changes from the backend's bus into system
// notifications, batched: when a subscriber goes down, hundreds of deliveries can fail
// in the same second, and one notification saying so is worth more than hundreds.
// Pure (timers only); index.ts shows the notices with Electron's Notification.

export interface FailureNotice {
  title: string;
  body: string;
  /** Set when exactly one delivery failed and it concerns a document: clicking opens it. */
  documentId: string | null;
}

type DeliveryChange = Extract<Change, { kind: 'delivery' }>;

export function isFinalFailure(change: Change): change is DeliveryChange {
  return change.kind === 'delivery' && change.status === 'failed';
}

export function describeFailures(failures: readonly DeliveryChange[]): FailureNotice {
  if (failures.length === 1) {
    const f = failures[0];
    return {
      title: 'A webhook delivery failed for good',
      body: `Delivery ${f.id} to subscription ${f.subscription_id} gave up after its last retry.`,
      documentId: f.document_id,
    };
  }
  const subscriptions = new Set(failures.map((f) => f.subscription_id)).size;
  return {
    title: `${failures.length} webhook deliveries failed for good`,
    body: `They gave up after their last retry (${subscriptions} subscription${subscriptions === 1 ? '' : 's'}). The delivery inspector shows why.`,
    documentId: null,
  };
}

export interface FailureBatcher {
  /** Feed every bus change; only final failures are kept. */
  onChange(change: Change): void;
  /** Drops anything not yet shown (at quit). */
  dispose(): void;
}

/** Shows the first failure after `windowMs`, together with every other that arrived meanwhile. */
export function createFailureBatcher(show: (notice: FailureNotice) => void, windowMs = 1500): FailureBatcher {
  let pending: DeliveryChange[] = [];
  let timer: ReturnType<typeof setTimeout> | null = null;
  return {
    onChange(change) {
      if (!isFinalFailure(change)) return;
      pending.push(change);
      timer ??= setTimeout(() => {
        const batch = pending;
        pending = [];
        timer = null;
        show(describeFailures(batch));
      }, windowMs);
    },
    dispose() {
      if (timer) clearTimeout(timer);
      timer = null;
      pending = [];
    },
  };
}
