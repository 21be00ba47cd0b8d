// One HTTP attempt of a delivery, over undici connection pools (one per origin, kept
// alive: Node's global fetch is several times slower for this many small POSTs).
// Guards against a subscriber that could stall or exhaust the engine: redirects are
// never followed (a 3xx is just a failed attempt), one deadline covers the whole
// exchange (connect, headers and body), and at most the first 64 KiB of a response
// is kept; the rest is discarded with the connection.
import { Pool } from 'undici';
import type { EventEmitter } from 'node:events';
import type { Readable } from 'node:stream';
import { Fifo } from './queues.js';

export const MAX_RESPONSE_BYTES = 64 * 1024;

export interface SendResult {
  durationMs: number;
  response: { status: number; headers: Record<string, string>; body: string; truncated: boolean } | null;
  /** The network error or timeout, for a person to read; null when a response came. */
  error: string | null;
}

/**
 * The abort signal of one attempt, in the EventEmitter shape undici accepts: far
 * cheaper than an AbortController per attempt, which matters at thousands a second.
 */
class AttemptSignal {
  aborted = false;
  reason: Error | undefined;
  done = false;
  private listener: (() => void) | null = null;
  constructor(readonly deadline: number) {}
  on(_event: 'abort', fn: () => void): this {
    this.listener = fn;
    return this;
  }
  once(event: 'abort', fn: () => void): this {
    return this.on(event, fn);
  }
  removeListener(): this {
    this.listener = null;
    return this;
  }
  abort(reason: Error): void {
    if (this.aborted || this.done) return;
    this.aborted = true;
    this.reason = reason;
    const fn = this.listener;
    this.listener = null;
    fn?.();
  }
}

interface Target {
  pool: Pool;
  path: string;
}

export interface HttpSenderOptions {
  timeoutMs: number;
  /** Connections per origin; the engine's global concurrency, so one origin shared by several subscriptions never queues behind a slow one. */
  connections: number;
  maxResponseBytes?: number;
}

function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name in raw) {
    const v = raw[name];
    if (v !== undefined) out[name] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}

/** Reads up to `limit` bytes, then drops the stream (undici closes that connection). */
function readLimited(body: Readable, limit: number): Promise<{ text: string; truncated: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      if (size + chunk.length <= limit) {
        chunks.push(chunk);
        size += chunk.length;
        return;
      }
      chunks.push(chunk.subarray(0, limit - size));
      body.off('data', onData).off('end', onEnd).off('error', reject);
      body.on('error', () => undefined);
      body.destroy();
      resolve({ text: Buffer.concat(chunks).toString('utf8'), truncated: true });
    };
    const onEnd = () => resolve({ text: chunks.length === 1 ? chunks[0].toString('utf8') : Buffer.concat(chunks).toString('utf8'), truncated: false });
    body.on('data', onData).once('end', onEnd).once('error', reject);
  });
}

export function describeError(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  // A host with several addresses fails with an AggregateError whose own message is empty.
  const inner = err instanceof AggregateError && err.errors.length > 0 && !err.message ? (err.errors[0] as Error) : err;
  const code = (inner as NodeJS.ErrnoException).code;
  const message = inner.message || inner.name;
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}

export class HttpSender {
  private readonly pools = new Map<string, Pool>();
  private readonly targets = new Map<string, Target>();
  /**
   * Attempts in start order. Every attempt has the same timeout, so deadlines come in
   * the same order and one timer (for the oldest unfinished attempt) enforces them all.
   */
  private readonly inFlight = new Fifo<AttemptSignal>();
  private timer: NodeJS.Timeout | null = null;
  private readonly maxBytes: number;

  constructor(private readonly options: HttpSenderOptions) {
    this.maxBytes = options.maxResponseBytes ?? MAX_RESPONSE_BYTES;
  }

  private target(url: string): Target {
    let t = this.targets.get(url);
    if (t) return t;
    const u = new URL(url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error(`unsupported URL scheme "${u.protocol}"`);
    let pool = this.pools.get(u.origin);
    if (!pool) {
      pool = new Pool(u.origin, { connections: this.options.connections, pipelining: 1 });
      this.pools.set(u.origin, pool);
    }
    // Distinct URLs are few (one per subscription); the cap only guards memory.
    if (this.targets.size > 10_000) this.targets.clear();
    t = { pool, path: `${u.pathname}${u.search}` };
    this.targets.set(url, t);
    return t;
  }

  private readonly onDeadline = (): void => {
    this.timer = null;
    const now = performance.now();
    for (let head = this.inFlight.peek(); head && (head.done || head.deadline <= now); head = this.inFlight.peek()) {
      this.inFlight.shift();
      head.abort(new Error('timeout'));
    }
    this.arm();
  };

  private arm(): void {
    const head = this.inFlight.peek();
    if (this.timer || !head) return;
    this.timer = setTimeout(this.onDeadline, Math.max(0, head.deadline - performance.now()) + 1);
    this.timer.unref();
  }

  private settle(signal: AttemptSignal): void {
    signal.done = true;
    // Finished attempts leave from the front; one that hangs there keeps the rest until its deadline.
    while (this.inFlight.peek()?.done) this.inFlight.shift();
    if (this.inFlight.length === 0 && this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
  }

  async send(url: string, headers: Record<string, string>, body: string): Promise<SendResult> {
    const started = performance.now();
    const signal = new AttemptSignal(started + this.options.timeoutMs);
    this.inFlight.push(signal);
    this.arm();
    try {
      const { pool, path } = this.target(url);
      const res = await pool.request({ path, method: 'POST', headers, body, signal: signal as unknown as EventEmitter });
      const { text, truncated } = await readLimited(res.body as unknown as Readable, this.maxBytes);
      return {
        durationMs: Math.round(performance.now() - started),
        response: { status: res.statusCode, headers: flattenHeaders(res.headers), body: text, truncated },
        error: null,
      };
    } catch (err) {
      const error = signal.reason?.message === 'timeout'
        ? `Timed out after ${this.options.timeoutMs} ms without a complete response`
        : signal.aborted
          ? 'Aborted: the delivery engine stopped'
          : describeError(err);
      return { durationMs: Math.round(performance.now() - started), response: null, error };
    } finally {
      this.settle(signal);
    }
  }

  /** Ends every attempt in flight now (they resolve with an error). */
  abortAll(): void {
    for (let s = this.inFlight.shift(); s; s = this.inFlight.shift()) s.abort(new Error('stopped'));
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  async close(): Promise<void> {
    const pools = [...this.pools.values()];
    this.pools.clear();
    this.targets.clear();
    await Promise.all(pools.map((p) => p.destroy().catch(() => undefined)));
  }
}
