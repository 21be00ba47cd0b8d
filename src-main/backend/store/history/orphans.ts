// Attempt lines recorded before their delivery's first summary (history-log.ts): held
// in memory (not on disk, so the log's flush() does not cover them) and written right
// after that summary; at open, attempts with no delivery base before them are ignored.
// Bounded: past LIMIT deliveries, the oldest held are forgotten.
import { parseAttempt } from './records.js';
import { attemptLine } from './attempt-bytes.js';
import type { AttemptRecord } from '../history-types.js';

const LIMIT = 10_000;

export class OrphanAttempts {
  private readonly lines = new Map<string, string[]>();

  /** Holds the attempt's line (as records.ts writes it) until its delivery is recorded. */
  hold(attempt: AttemptRecord): void {
    const deliveryId = attempt.delivery_id;
    const line = attemptLine(attempt);
    const early = this.lines.get(deliveryId);
    if (early) return void early.push(line);
    if (this.lines.size >= LIMIT) this.lines.delete(this.lines.keys().next().value as string);
    this.lines.set(deliveryId, [line]);
  }

  /** The lines held for a delivery, oldest first, no longer held. */
  take(deliveryId: string): string[] | undefined {
    const early = this.lines.get(deliveryId);
    if (early) this.lines.delete(deliveryId);
    return early;
  }

  attempts(deliveryId: string): AttemptRecord[] {
    const early = (this.lines.get(deliveryId) ?? []).map((line) => parseAttempt(line)?.attempt);
    return early.filter((a): a is AttemptRecord => a !== undefined);
  }

  clear(): void {
    this.lines.clear();
  }
}
