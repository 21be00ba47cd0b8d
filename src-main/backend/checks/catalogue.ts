// The scorecard's items (docs/testing-your-endpoint.md): what each sends, how it is
// graded, why it matters and how to fix it. The order here is the order of the report.
import type { CheckItemId } from '@shared/check-types.js';
import { probe, repeat, type Probe, type ProbeKit } from './probes.js';
import { gradeAccepted, gradeRefused, is2xx, describe, type Grade, type Sent } from './grading.js';

export const BURST_SIZE = 20;
export const SLOW_MS = 2000;
const TOLERANCE_PAST = 10 * 60;

export interface ItemPlan {
  id: CheckItemId;
  title: string;
  required: boolean;
  why: string;
  fix: string;
  /** Steps in order; the probes of one step are sent at once. None: graded from other items. */
  steps(kit: ProbeKit): Probe[][];
  /** `all` holds every item's answers, for the items that judge them together. */
  grade(sent: Sent[], all: Map<CheckItemId, Sent[]>, timeoutMs: number): Grade;
}

const one = (p: Probe): Probe[][] => [[p]];
const VERIFY_FIX =
  'Verify every request before acting on it: compute the HMAC-SHA256 of "webhook-id.webhook-timestamp.raw body" with your whsec_ secret ' +
  '(or use a Standard Webhooks library) and answer 400 or 401 when it does not match.';

export const ITEMS: ItemPlan[] = [
  {
    id: 'accepts_signed',
    title: 'Accepts a correctly signed delivery',
    required: true,
    why: 'Every real delivery looks like this one; anything but a 2xx makes the service retry it and, in the end, give up.',
    fix: 'Answer 2xx (200 or 204) once the signature verifies, within the timeout; do slow work after answering.',
    steps: (kit) => one(probe(kit, { type: 'document.completed' })),
    grade: (sent) => gradeAccepted(sent, 'A signed document.completed'),
  },
  {
    id: 'answers_quickly',
    title: 'Answers quickly',
    required: false,
    why: 'A slow answer holds a connection and, past the timeout, counts as a failure and is retried.',
    fix: `Acknowledge first (2xx in well under ${SLOW_MS / 1000} s), then process the event from a queue.`,
    steps: () => [],
    grade: (_sent, all, timeoutMs) => {
      const s = all.get('accepts_signed')?.[0];
      if (!s?.result.response) return { status: 'fail', message: `No answer within ${timeoutMs} ms.` };
      const ms = s.result.durationMs;
      if (ms > SLOW_MS) return { status: 'warn', message: `Answered in ${ms} ms: slower than ${SLOW_MS} ms.` };
      return { status: 'pass', message: `Answered in ${ms} ms.` };
    },
  },
  {
    id: 'survives_burst',
    title: `Keeps answering under a burst of ${BURST_SIZE} concurrent deliveries`,
    required: true,
    why: 'A bulk send or a recovery after an outage delivers many events at once.',
    fix: 'Do not serialise requests behind a lock or a single worker; acknowledge each one quickly and queue the work.',
    steps: (kit) => [Array.from({ length: BURST_SIZE }, () => probe(kit, { type: 'document.viewed' }))],
    grade: (sent) => gradeAccepted(sent, `${BURST_SIZE} signed deliveries at once`),
  },
  {
    id: 'refuses_unsigned',
    title: 'Refuses a delivery without signature headers',
    required: true,
    why: 'Anyone who knows the URL can post to it; without a check, a forged "document.completed" would be acted on.',
    fix: 'Answer 400 or 401 when webhook-id, webhook-timestamp or webhook-signature is missing.',
    steps: (kit) => one(probe(kit, { type: 'document.completed' }, { kind: 'none' })),
    grade: (sent) => gradeRefused(sent, 'No signature headers'),
  },
  {
    id: 'refuses_other_secret',
    title: 'Refuses a signature made with another secret',
    required: true,
    why: 'Only the service knows your secret; a signature from any other key is a forgery.',
    fix: VERIFY_FIX,
    steps: (kit) => one(probe(kit, { type: 'document.completed' }, { kind: 'other_secret' })),
    grade: (sent) => gradeRefused(sent, 'Signed with another secret'),
  },
  {
    id: 'refuses_changed_body',
    title: 'Refuses a body changed by one byte after signing',
    required: true,
    why: 'The signature covers the exact bytes; a changed body means someone altered the event on the way.',
    fix: 'Verify the raw body as received, before any JSON parsing or re-serialising, and compare in constant time.',
    steps: (kit) => one(probe(kit, { type: 'document.completed' }, { kind: 'changed_body' })),
    grade: (sent) => gradeRefused(sent, 'A body changed by one byte'),
  },
  {
    id: 'refuses_old_timestamp',
    title: 'Refuses a timestamp older than 5 minutes',
    required: true,
    why: 'Without a time limit, a captured request can be replayed at you for ever.',
    fix: 'Refuse a webhook-timestamp more than 5 minutes (300 s) from your clock, as the Standard Webhooks libraries do.',
    steps: (kit) => one(probe(kit, { type: 'document.completed' }, { kind: 'timestamp', offsetSeconds: -TOLERANCE_PAST })),
    grade: (sent) => gradeRefused(sent, 'A timestamp 10 minutes old'),
  },
  {
    id: 'refuses_future_timestamp',
    title: 'Refuses a timestamp in the future beyond tolerance',
    required: true,
    why: 'A request dated in the future could be replayed until that time comes and goes.',
    fix: 'Refuse a webhook-timestamp more than 5 minutes ahead of your clock too.',
    steps: (kit) => one(probe(kit, { type: 'document.completed' }, { kind: 'timestamp', offsetSeconds: TOLERANCE_PAST })),
    grade: (sent) => gradeRefused(sent, 'A timestamp 10 minutes ahead'),
  },
  {
    id: 'accepts_rotated_signatures',
    title: 'Accepts several signatures when one is valid (secret rotation)',
    required: true,
    why: 'While a secret is rotated, the service signs with the old and the new one; the header then carries both.',
    fix: 'Split webhook-signature on spaces and accept the request when any "v1," entry matches.',
    steps: (kit) => one(probe(kit, { type: 'document.completed' }, { kind: 'rotated' })),
    grade: (sent) => gradeAccepted(sent, 'Two signatures, the second valid'),
  },
  {
    id: 'accepts_unknown_event_type',
    title: 'Accepts an event type it does not know',
    required: true,
    why: 'New event types are added over time; refusing one makes the service retry it until it gives up, for nothing.',
    fix: 'Answer 2xx to a verified event of a type you do not handle, and ignore it.',
    steps: (kit) => one(probe(kit, { type: 'document.archived' })),
    grade: (sent) => gradeAccepted(sent, 'A verified document.archived (an unknown type)'),
  },
  {
    id: 'accepts_unknown_fields',
    title: 'Accepts unknown extra fields',
    required: true,
    why: 'Events gain fields over time; a strict schema would break on the day one is added.',
    fix: 'Parse leniently: ignore fields you do not know, at every level.',
    steps: (kit) => one(probe(kit, { type: 'document.sent', extra: true })),
    grade: (sent) => gradeAccepted(sent, 'A document.sent with new fields'),
  },
  {
    id: 'accepts_repeated_id',
    title: 'Accepts a repeated webhook-id with 2xx',
    required: true,
    why: 'Delivery is at least once: a retry after a lost answer repeats the webhook-id. Refusing it makes the service retry again.',
    fix: 'Keep the webhook-ids you have processed; for a repeat, skip the work and answer 2xx.',
    steps: (kit) => {
      const first = probe(kit, { type: 'document.completed' });
      return [[first], [repeat(kit, first)]];
    },
    grade: (sent) => gradeAccepted(sent, 'The same delivery twice'),
  },
  {
    id: 'accepts_out_of_order',
    title: "Accepts one document's events out of order",
    required: true,
    why: 'Retries and concurrency reorder events: "completed" can arrive before "sent".',
    fix: 'Do not refuse an event because an earlier one is missing; use the timestamp and the document state in the event.',
    steps: (kit) => {
      const last = probe(kit, { type: 'document.completed' });
      const documentId = last.documentId;
      return [
        [last],
        [probe(kit, { type: 'document.recipient_completed', documentId })],
        [probe(kit, { type: 'document.sent', documentId })],
      ];
    },
    grade: (sent) => gradeAccepted(sent, 'completed, then recipient_completed, then sent'),
  },
  {
    id: 'no_redirect',
    title: 'Does not answer with a redirect',
    required: true,
    why: 'Redirects are never followed: a 3xx is a failed delivery, however it is meant.',
    fix: 'Subscribe the final URL (scheme, host, path and trailing slash exactly as served) and answer there.',
    steps: () => [],
    grade: (_sent, all) => {
      for (const [id, list] of all) {
        const hit = list.find((s) => !is2xx(s) && s.result.response && s.result.response.status >= 300 && s.result.response.status < 400);
        if (hit) return { status: 'fail', message: `${id}: ${describe(hit)}.` };
      }
      return { status: 'pass', message: 'No answer was a redirect.' };
    },
  },
];
