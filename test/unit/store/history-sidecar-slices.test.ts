// A closing segment's sidecar is made outside the request that closes it (docs/storage.md,
// "Segment rotation"): that request only copies what can still change (sidecar-frozen.ts),
// and the copy is encoded in slices between requests. Against a real temp folder: the
// call that crosses the boundary returns with the sidecar not made yet, queries meanwhile
// see every row, and the sidecar made later is, byte for byte, the one a scan of the
// closed file gives, although the segment's deliveries changed in between (new attempts,
// new error strings in place of ones whose interned numbers would otherwise be reused).
import { describe, expect, it } from 'vitest';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { HistoryLog } from '../../../src-main/backend/store/history-types.js';
import { attempt, delivery, event, historyLogs, summaryAfter } from './history-fixtures.js';

const SEG = 200;
const setup = historyLogs({ cap: 100_000, segmentDeliveries: SEG });

interface Inner {
  sidecars: { unmadeCount: number; idle(): Promise<void> };
}

/** Events of 10 deliveries each; every 7th delivery fails with an error message of its own. */
function record(log: HistoryLog, from: number, to: number): void {
  for (let e = from; e < to; e++) {
    log.recordEvent(event({ id: `evt_${e}` }), `{"n":${e}}`);
    log.recordDeliveries(
      Array.from({ length: 10 }, (_, k) => {
        const i = e * 10 + k;
        const failed = i % 7 === 0;
        return delivery({
          id: `msg_${i}`,
          event_id: `evt_${e}`,
          subscription_id: `wh_${k}`,
          status: failed ? 'failed' : 'pending',
          attempts: failed ? 1 : 0,
          last_error: failed ? `refused ${i}` : null,
        });
      }),
    );
  }
}

describe('history log: a closing segment`s sidecar, made in slices', () => {
  // 8,400: a segment longer than two of the encoder's chunks (column-kernels.ts CHUNK), its string columns renumbered across them.
  it.each([SEG, 8400])(
    'is not made inside the call that closes the segment; made later, it is what scanning the file gives, though its rows changed meanwhile (%i deliveries a segment)',
    async (seg) => {
      const { dir, open } = await setup({ segmentDeliveries: seg });
      const { log } = await open();
      const inner = log as unknown as Inner;
      record(log, 0, seg / 10); // fills segment 1 exactly
      expect(inner.sidecars.unmadeCount).toBe(0);
      record(log, seg / 10, seg / 10 + 1); // the first delivery of this call closes segment 1
      // The call returned: segment 1's sidecar is copied, not encoded (nothing ran between).
      expect(inner.sidecars.unmadeCount).toBe(1);
      // Segment 1's deliveries change before the slices run: attempts in segment 2, each
      // failed one's own error string given up for a new one (its interned number freed).
      for (let i = 0; i < seg; i++) {
        const a = attempt({
          delivery_id: `msg_${i}`,
          attempt: 2,
          error: i % 7 === 0 ? `timeout ${i}` : null,
          response: null,
          succeeded: i % 7 !== 0,
        });
        const old = log.getDelivery(`msg_${i}`);
        if (!old) throw new Error(`msg_${i} missing`);
        log.recordAttempted(a, summaryAfter(old, a));
      }
      // Queries meanwhile see every row, as changed.
      expect(log.listDeliveries({ company_id: 'co_a' }, { limit: seg + 10 }).data).toHaveLength(seg + 10);
      expect(log.getDelivery('msg_7')?.last_error).toBe('timeout 7');
      await inner.sidecars.idle();
      expect(inner.sidecars.unmadeCount).toBe(0);
      await log.close();
      const fromMemory = await readFile(join(dir, 'seg-000001.idx'));
      // The same segment's sidecar made by scanning its file (the loader's own path).
      await rm(join(dir, 'seg-000001.idx'));
      const again = await open();
      await again.log.close();
      expect((await readdir(dir)).filter((n) => n.endsWith('.idx'))).toContain('seg-000001.idx');
      expect((await readFile(join(dir, 'seg-000001.idx'))).equals(fromMemory)).toBe(true);
      // And loading it gives every delivery's latest state (segment 2's records replayed on it).
      const third = await open();
      expect(third.log.getDelivery('msg_14')?.last_error).toBe('timeout 14');
      expect(third.log.getDelivery('msg_15')?.status).toBe('succeeded');
      expect(await third.log.getAttempts('msg_14')).toHaveLength(1);
    },
  );

  it('is given up when retention drops its segment before it is made (no sidecar of a dropped segment)', async () => {
    const { dir, open } = await setup({ cap: SEG });
    const { log } = await open();
    const inner = log as unknown as Inner;
    record(log, 0, SEG / 10 + 1); // closes segment 1, pending deliveries: retention carries them
    record(log, SEG / 10 + 1, (2 * SEG) / 10 + 1); // closes segment 2; more than the cap: segment 1 is dropped
    await inner.sidecars.idle();
    await log.close();
    const names = (await readdir(dir)).sort();
    expect(names).not.toContain('seg-000001.jsonl');
    // Every sidecar left is beside its segment.
    for (const n of names.filter((f) => f.endsWith('.idx'))) expect(names).toContain(n.replace(/\.idx$/, '.jsonl'));
    expect(inner.sidecars.unmadeCount).toBe(0);
    const again = await open();
    expect(again.warnings).toEqual([]);
    expect(again.log.listDeliveries({ company_id: 'co_a' }, { limit: 1000 }).data.length).toBeGreaterThan(0);
  });
});
