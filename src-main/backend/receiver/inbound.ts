// Socket-level work of the receiver: reading a raw body under a size limit, and
// answering with a delay or not at all (hang). Guards against a sender exhausting
// memory (the body is read up to the limit, the rest is discarded and the answer is 413
// with Connection: close) and against hung requests outliving the receiver (every
// delayed or hung answer is tracked, cut after a bound, and ended by close()).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { systemClock } from '../clock.js';
import type { CaptureResponse } from '@shared/receiver-types.js';
import { joinOwned } from './own-bytes.js';

/** Bytes of an oversize body kept for inspection. */
const OVERSIZE_KEEP = 64 * 1024;

export interface ReadBody {
  body: Buffer;
  size: number;
  tooLarge: boolean;
  /** The receiver's memory budget had no room for the rest: nothing was kept (answered 503). */
  overBudget: boolean;
}

/**
 * Reads the whole body, or stops keeping it past `limit`, or as soon as `grow` (told
 * the bytes kept so far) says they do not fit. Rejects if the sender aborts.
 */
export function readBody(req: IncomingMessage, limit: number, grow: (total: number) => boolean = () => true): Promise<ReadBody> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    return Promise.resolve({ body: Buffer.alloc(0), size: declared, tooLarge: true, overBudget: false });
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (r: ReadBody) => {
      if (done) return;
      done = true;
      chunks.length = 0;
      resolve(r);
    };
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (done) return; // draining (discarding) so that the answer can be written
      if (size > limit) {
        const kept = Buffer.concat(chunks).subarray(0, OVERSIZE_KEEP);
        // Keep draining (discarding) so the 413 can be written; the socket closes after it.
        return finish({ body: joinOwned([kept]), size, tooLarge: true, overBudget: false });
      }
      if (!grow(size)) return finish({ body: Buffer.alloc(0), size, tooLarge: false, overBudget: true });
      chunks.push(chunk);
    });
    // The body may be kept for as long as its inbox keeps the capture: memory of its own (own-bytes.ts).
    req.on('end', () => finish({ body: joinOwned(chunks), size, tooLarge: false, overBudget: false }));
    req.on('error', (err) => {
      if (!done) {
        done = true;
        reject(err);
      }
    });
    req.on('close', () => {
      if (!done) {
        done = true;
        reject(new Error('the sender closed the connection before the body ended'));
      }
    });
  });
}

/** Tracks answers still owed (delays, hangs) so that close() can end them. */
export class PendingAnswers {
  private readonly open = new Set<() => void>();

  /**
   * Sends `answer` after its delay, or never (hang: until the sender gives up, `maxHangMs`
   * passes, or close()). `onGaveUp` is told how long a hung sender waited.
   */
  send(res: ServerResponse, answer: CaptureResponse, maxHangMs: number, onGaveUp?: (ms: number) => void): void {
    // Real time: a response delay is what the sender waits, whatever the service's clock says.
    const started = systemClock.now();
    const write = () => {
      if (res.writableEnded || res.destroyed) return;
      res.writeHead(answer.status ?? 200, answer.headers);
      res.end(answer.body);
    };
    if (!answer.hang && answer.delay_ms <= 0) return write();
    const cancel = () => {
      systemClock.clearTimeout(timer);
      this.open.delete(end);
    };
    // Ends the wait: a delayed answer is written, a hung one has its socket destroyed.
    const end = () => {
      cancel();
      if (answer.hang) res.destroy();
      else write();
    };
    this.open.add(end);
    const timer = systemClock.setTimeout(end, answer.hang ? maxHangMs : answer.delay_ms);
    res.on('close', () => {
      const waited = systemClock.now() - started;
      const wasOpen = this.open.has(end);
      cancel();
      if (answer.hang && wasOpen) onGaveUp?.(waited);
    });
  }

  /** Ends every wait now (delayed answers are written, hung sockets destroyed). */
  closeAll(): void {
    for (const end of [...this.open]) end();
  }

  get size(): number {
    return this.open.size;
  }
}
