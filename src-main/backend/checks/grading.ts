// How one answer, or an item's answers, are judged: accepted (2xx), refused (4xx; a 5xx
// refuses too but makes a real sender retry), a redirect (never followed), or no
// answer at all. Pure.
import type { CheckItemStatus } from '@shared/check-types.js';
import type { SendResult } from '../delivery/http-sender.js';
import type { Probe } from './probes.js';

export interface Sent {
  probe: Probe;
  result: SendResult;
}

export interface Grade {
  status: CheckItemStatus;
  message: string;
}

const excerpt = (body: string) => {
  const one = body.replace(/\s+/g, ' ').trim();
  return one.length > 80 ? `${one.slice(0, 80)}…` : one;
};

/** "answered 401 (invalid signature) in 12 ms", or "did not answer: …". */
export function describe(s: Sent): string {
  const r = s.result;
  if (!r.response) return `did not answer: ${r.error ?? 'no response'}`;
  const body = excerpt(r.response.body);
  const where = r.response.status >= 300 && r.response.status < 400 ? ` to ${r.response.headers.location ?? '(no Location)'}` : '';
  return `answered ${r.response.status}${where}${body ? ` (${body})` : ''} in ${r.durationMs} ms`;
}

export const is2xx = (s: Sent) => !!s.result.response && s.result.response.status >= 200 && s.result.response.status < 300;

/** Every delivery must get a 2xx. */
export function gradeAccepted(sent: Sent[], what: string): Grade {
  const bad = sent.filter((s) => !is2xx(s));
  if (bad.length === 0) {
    const codes = [...new Set(sent.map((s) => s.result.response!.status))].join(', ');
    const all = sent.length > 1 ? ` to all ${sent.length}, the slowest` : '';
    return { status: 'pass', message: `${what}: answered ${codes}${all} in ${slowest(sent)} ms.` };
  }
  const first = bad[0];
  const which = sent.length > 1 ? ` (${sent.indexOf(first) + 1} of ${sent.length})` : '';
  return { status: 'fail', message: `${what}${which}: ${describe(first)}.` };
}

/** The delivery must not get a 2xx; a 4xx is right, a 5xx is a warning (the sender would retry it). */
export function gradeRefused(sent: Sent[], what: string): Grade {
  const s = sent[0];
  const r = s.result.response;
  if (!r) return { status: 'fail', message: `${what}: ${describe(s)}. A refusal is an answer (400 or 401).` };
  if (r.status >= 200 && r.status < 300) return { status: 'fail', message: `${what}: accepted it, ${describe(s)}.` };
  if (r.status >= 500) return { status: 'warn', message: `${what}: refused it, but with a server error: ${describe(s)}.` };
  return { status: 'pass', message: `${what}: refused it, ${describe(s)}.` };
}

export const slowest = (sent: Sent[]): number | null => {
  const answered = sent.filter((s) => s.result.response);
  return answered.length === 0 ? null : Math.max(...answered.map((s) => s.result.durationMs));
};
