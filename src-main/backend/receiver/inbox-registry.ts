// Inbox definitions (the store's extension "receiver", kept small: configuration only)
// and the per-inbox counters that response modes and duplicate detection need. The
// registry works on its own copy and stores the whole of it after every change.
// Guards against secrets leaking: views carry a fingerprint, never the secret.
import { createHash } from 'node:crypto';
import type { ChangeBus } from '../bus.js';
import type { Store } from '../store/store.js';
import { isoNow, type Clock } from '../clock.js';
import { notFound, validationError } from '../errors.js';
import { newId } from '../ids.js';
import { parseSecret } from '../delivery/signing.js';
import type { CaptureStore } from './capture-store.js';
import type { CreateInboxInput, UpdateInboxInput } from './inbox-input.js';
import { responseModeSchema } from './inbox-input.js';
import { checkForwardTarget } from './forward-target.js';
import { classifyUrl, linkedSubscriptions, staleSubscriptions, type ReceiverOrigins } from './linked-subscriptions.js';
import { describeResponse } from './response-mode.js';
import { fingerprint, type SecretCandidate } from './verdict.js';
import { DEFAULT_RESPONSE, type InboxRecord, type ReceiverData, type ReceiverLimits } from './types.js';
import type { Inbox, StaleSubscription } from '@shared/receiver-types.js';
import type { ResponseMode } from '@shared/receiver-types.js';

/** The store extension holding the receiver's configuration. */
const EXTENSION = 'receiver';
const PAST_URLS_KEPT = 20;
/** webhook-ids remembered per inbox for duplicates and fail_first_n (oldest forgotten first). */
const IDS_KEPT = 20_000;

/** An inbox as the console API shows it (its secret by fingerprint only). */
export type InboxView = Inbox;

/** Longer webhook-ids are remembered by a digest, so that a sender's 16 KiB ids cannot fill memory. */
const KEY_KEPT_AS_IS = 64;

/** A map that forgets its oldest keys past a size. */
class BoundedCounts {
  private readonly m = new Map<string, number>();
  bump(raw: string): number {
    const key = raw.length <= KEY_KEPT_AS_IS ? raw : `#${createHash('sha256').update(raw).digest('base64url')}`;
    const n = (this.m.get(key) ?? 0) + 1;
    this.m.delete(key);
    this.m.set(key, n);
    if (this.m.size > IDS_KEPT) this.m.delete(this.m.keys().next().value as string);
    return n;
  }
  clear(): void {
    this.m.clear();
  }
}

export interface InboxCounters {
  /** Counts one more request with this webhook-id; returns how many so far (1 = first). */
  seen(webhookId: string): number;
  /** Counts one more request under the current response mode; '' = requests without a webhook-id. */
  modeAttempt(key: string): number;
}

interface Deps {
  store: Store;
  bus: ChangeBus;
  captures: CaptureStore;
  limits: ReceiverLimits;
  clock: Clock;
  localUrl: () => string;
  publicUrl: () => string | undefined;
}

export class InboxRegistry {
  private readonly byId = new Map<string, InboxRecord>();
  private readonly seenCounts = new Map<string, BoundedCounts>();
  private readonly modeCounts = new Map<string, BoundedCounts>();
  /** What is stored (a copy of it): inboxes oldest first, and past public URLs. */
  private saved: ReceiverData = { inboxes: [], past_public_urls: [] };

  constructor(private readonly deps: Deps) {}

  /** Stores the whole configuration (the store keeps its own copy). */
  private save(): void {
    this.deps.store.extensions.set(EXTENSION, this.saved);
  }

  load(): void {
    this.byId.clear();
    this.seenCounts.clear();
    this.modeCounts.clear();
    const stored = structuredClone(this.deps.store.extensions.get<Partial<ReceiverData>>(EXTENSION)) as Partial<ReceiverData> | undefined;
    const raws = Array.isArray(stored?.inboxes) ? stored.inboxes : [];
    const kept: InboxRecord[] = [];
    for (const raw of raws) {
      // A hand-edited or older store may hold something odd: keep only what is sound.
      if (!raw || typeof raw.id !== 'string' || !/^inb_[0-9A-Za-z]+$/.test(raw.id)) continue;
      const response = responseModeSchema.safeParse(raw.response);
      const rec: InboxRecord = {
        id: raw.id,
        name: typeof raw.name === 'string' ? raw.name : raw.id,
        secret: typeof raw.secret === 'string' ? raw.secret : null,
        response: response.success ? (response.data as ResponseMode) : { ...DEFAULT_RESPONSE },
        created_at: typeof raw.created_at === 'string' ? raw.created_at : isoNow(this.deps.clock),
        ...(typeof raw.company_id === 'string' ? { company_id: raw.company_id } : {}),
        ...importedResponseOf(raw),
      };
      kept.push(rec);
      this.byId.set(rec.id, rec);
      for (const c of this.deps.captures.loadInbox(rec.id)) if (c.webhook_id) this.counters(rec.id).seen(c.webhook_id);
    }
    this.saved = { inboxes: kept, past_public_urls: Array.isArray(stored?.past_public_urls) ? stored.past_public_urls : [] };
    // What was stored was odd (hand-edited, older): keep the sound version from now on.
    if (JSON.stringify(this.saved) !== JSON.stringify(stored)) this.save();
  }

  record(id: string): InboxRecord | undefined {
    return this.byId.get(id);
  }

  all(): readonly InboxRecord[] {
    return this.saved.inboxes;
  }

  counters(inboxId: string): InboxCounters {
    let seen = this.seenCounts.get(inboxId);
    if (!seen) this.seenCounts.set(inboxId, (seen = new BoundedCounts()));
    let mode = this.modeCounts.get(inboxId);
    if (!mode) this.modeCounts.set(inboxId, (mode = new BoundedCounts()));
    return { seen: (k) => seen.bump(k), modeAttempt: (k) => mode.bump(k) };
  }

  origins(): ReceiverOrigins {
    return { local: this.deps.localUrl(), public: this.deps.publicUrl(), past: this.saved.past_public_urls };
  }

  /** The pasted secret alone, or else every linked subscription's secret (oldest first). */
  candidates(inbox: InboxRecord): SecretCandidate[] {
    if (inbox.secret) return [{ secret: inbox.secret, source: 'pasted', subscription_id: null }];
    return linkedSubscriptions(this.deps.store.subscriptions.all(), inbox.id, this.origins()).map((s) => ({
      secret: s.secret_key,
      source: 'linked',
      subscription_id: s.public_id,
    }));
  }

  /** The URL a new subscription to this inbox should use: public when the tunnel is online. */
  subscribeUrl(id: string): string {
    const base = this.deps.publicUrl() ?? this.deps.localUrl();
    return `${base.replace(/\/+$/, '')}/in/${id}`;
  }

  notePublicUrl(url: string | undefined): void {
    if (!url) return;
    const past = this.saved.past_public_urls;
    if (past[past.length - 1] === url) return;
    this.saved.past_public_urls = [...past.filter((u) => u !== url), url].slice(-PAST_URLS_KEPT);
    this.save();
    this.deps.store.commitLater();
  }

  stale(): StaleSubscription[] {
    return staleSubscriptions(this.deps.store.subscriptions.all(), new Set(this.byId.keys()), this.origins());
  }

  /** Whether a URL reaches an inbox through a public tunnel URL, current or past (kept in past_public_urls). */
  isTunnelUrl(url: string): boolean {
    const c = classifyUrl(url, this.origins());
    return c !== null && (c.kind === 'public' || c.kind === 'past_public');
  }

  /** The inbox a URL reaches, if any (for the console's "which inbox is this subscription"). */
  inboxForUrl(url: string): string | null {
    const c = classifyUrl(url, this.origins());
    return c && c.kind !== 'old_local' && this.byId.has(c.inboxId) ? c.inboxId : null;
  }

  view(rec: InboxRecord): InboxView {
    const cands = this.candidates(rec);
    const first = cands[0];
    const pub = this.deps.publicUrl();
    const linked = rec.secret ? [] : cands.map((c) => c.subscription_id!);
    return {
      id: rec.id,
      name: rec.name,
      created_at: rec.created_at,
      path: `/in/${rec.id}`,
      local_url: `${this.deps.localUrl()}/in/${rec.id}`,
      public_url: pub ? `${pub.replace(/\/+$/, '')}/in/${rec.id}` : null,
      secret: {
        source: first ? first.source : 'none',
        fingerprint: first ? fingerprint(first.secret) : null,
        format_ok: first ? parseSecret(first.secret).ok : null,
        linked_subscription_ids: linked,
      },
      response: rec.response,
      response_description: describeResponse(rec.response),
      capture_count: this.deps.captures.count(rec.id),
      ...(rec.imported_response
        ? { imported_response: rec.imported_response, imported_response_description: describeResponse(rec.imported_response) }
        : {}),
    };
  }

  get(id: string): InboxView {
    const rec = this.byId.get(id);
    if (!rec) throw notFound('inbox');
    return this.view(rec);
  }

  list(): InboxView[] {
    return this.saved.inboxes.map((r) => this.view(r));
  }

  /** A forward target must pass the loopback rule (forward-target.ts) before anything changes. */
  private checkResponse(response: CreateInboxInput['response']): void {
    if (response?.mode === 'forward') checkForwardTarget(response.url, this.deps.limits.forwardToAnyHost);
  }

  /** `importedResponse`: an imported inbox's own mode, kept off until the user turns it on (types.ts). */
  async create(input: CreateInboxInput, id = newId('inb'), companyId?: string, importedResponse?: ResponseMode): Promise<InboxView> {
    if (this.byId.size >= this.deps.limits.maxInboxes) {
      throw validationError([{ field: 'name', message: `at most ${this.deps.limits.maxInboxes} inboxes; delete one first` }]);
    }
    this.checkResponse(input.response);
    const rec: InboxRecord = {
      id,
      name: input.name ?? `Inbox ${this.byId.size + 1}`,
      secret: input.secret ?? null,
      response: (input.response as ResponseMode | undefined) ?? { ...DEFAULT_RESPONSE },
      created_at: isoNow(this.deps.clock),
      ...(companyId ? { company_id: companyId } : {}),
      ...(importedResponse ? { imported_response: importedResponse } : {}),
    };
    this.saved.inboxes.push(rec);
    this.byId.set(rec.id, rec);
    this.save();
    await this.deps.store.commit();
    this.deps.bus.emit({ kind: 'inbox', id: rec.id });
    return this.view(rec);
  }

  async update(id: string, input: UpdateInboxInput): Promise<InboxView> {
    const rec = this.byId.get(id);
    if (!rec) throw notFound('inbox');
    this.checkResponse(input.response);
    if (input.name !== undefined) rec.name = input.name;
    if (input.secret !== undefined) rec.secret = input.secret;
    if (input.response !== undefined) {
      rec.response = input.response as ResponseMode;
      // The user chose a mode (the imported one or another): nothing is left to turn on.
      delete rec.imported_response;
      // A new mode starts afresh: "fail the first N" counts from now on.
      this.modeCounts.get(id)?.clear();
    }
    this.save();
    await this.deps.store.commit();
    this.deps.bus.emit({ kind: 'inbox', id });
    return this.view(rec);
  }

  async remove(id: string): Promise<void> {
    if (!this.byId.has(id)) throw notFound('inbox');
    this.byId.delete(id);
    this.seenCounts.delete(id);
    this.modeCounts.delete(id);
    this.saved.inboxes = this.saved.inboxes.filter((r) => r.id !== id);
    this.deps.captures.dropInbox(id);
    this.save();
    await this.deps.store.commit();
    this.deps.bus.emit({ kind: 'inbox', id });
  }
}

/** A stored inbox's kept imported mode, when it is sound. */
function importedResponseOf(raw: Partial<InboxRecord>): { imported_response?: ResponseMode } {
  const r = responseModeSchema.safeParse(raw.imported_response);
  return raw.imported_response !== undefined && r.success ? { imported_response: r.data as ResponseMode } : {};
}
