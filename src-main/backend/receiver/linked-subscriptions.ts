// Which local subscriptions point at which inbox. A subscription is "linked" to an inbox
// when its URL's path is the inbox's path (/in/<inbox_id>, or below it) and its origin is
// one that reaches this receiver: the local listener (any loopback spelling, same port),
// the tunnel's current public URL, or a public URL the tunnel had before. A linked
// subscription's secret is what the inbox verifies with when no secret was pasted.
// "Stale" subscriptions point at an inbox through an origin that no longer reaches it
// (an old public URL, or a loopback port from an earlier run).
import type { SubscriptionRecord } from '../store/schema.js';
import type { DeepReadonly } from '../store/table.js';
import type { StaleSubscription } from '@shared/receiver-types.js';

export interface ReceiverOrigins {
  /** http://127.0.0.1:<port> */
  local: string;
  /** The tunnel's current public origin, when online. */
  public?: string;
  /** Public origins the tunnel had before (may include the current one). */
  past: readonly string[];
}

export type LinkKind = 'local' | 'public' | 'past_public' | 'old_local';

const INBOX_PATH = /^\/in\/(inb_[0-9A-Za-z]+)(?:\/.*)?$/;

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

function origin(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/** The inbox a URL points at, and through what kind of origin; null if none. */
export function classifyUrl(url: string, origins: ReceiverOrigins): { inboxId: string; kind: LinkKind } | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  const m = INBOX_PATH.exec(u.pathname.replace(/\/+$/, ''));
  if (!m) return null;
  const inboxId = m[1];
  const local = new URL(origins.local);
  if (u.protocol === 'http:' && isLoopback(u.hostname)) {
    const port = u.port || '80';
    return { inboxId, kind: port === (local.port || '80') ? 'local' : 'old_local' };
  }
  const o = u.origin;
  if (origins.public && o === origin(origins.public)) return { inboxId, kind: 'public' };
  if (origins.past.some((p) => origin(p) === o)) return { inboxId, kind: 'past_public' };
  return null;
}

/** Subscriptions (of any company) whose deliveries reach this inbox; oldest first. */
export function linkedSubscriptions(
  subs: Iterable<DeepReadonly<SubscriptionRecord>>,
  inboxId: string,
  origins: ReceiverOrigins,
): DeepReadonly<SubscriptionRecord>[] {
  const out: DeepReadonly<SubscriptionRecord>[] = [];
  for (const s of subs) {
    const c = classifyUrl(s.url, origins);
    if (c && c.inboxId === inboxId && c.kind !== 'old_local') out.push(s);
  }
  return out;
}

/** Subscriptions that point at an existing inbox through an origin that no longer reaches it. */
export function staleSubscriptions(
  subs: Iterable<DeepReadonly<SubscriptionRecord>>,
  inboxIds: ReadonlySet<string>,
  origins: ReceiverOrigins,
): StaleSubscription[] {
  const out: StaleSubscription[] = [];
  const target = origins.public ?? origins.local;
  for (const s of subs) {
    const c = classifyUrl(s.url, origins);
    if (!c || !inboxIds.has(c.inboxId)) continue;
    if (c.kind !== 'past_public' && c.kind !== 'old_local') continue;
    const u = new URL(s.url);
    out.push({
      public_id: s.public_id,
      company_id: s.company_id,
      url: s.url,
      type: s.type,
      inbox_id: c.inboxId,
      reason: c.kind === 'past_public' ? 'old_public_url' : 'old_local_url',
      new_url: `${target.replace(/\/+$/, '')}${u.pathname}${u.search}`,
    });
  }
  return out;
}
