// One HTTP attempt of a delivery, over undici connection pools (one per origin, kept
// alive: Node's global fetch is several times slower for this many small POSTs). Each
// attempt is one dispatch() with its own small handler, not request(): the response
// stream, promise and async resource request() builds cost ~5 us an attempt, a fifth
// of the client's work, for a body of a few bytes that we only collect.
// Guards against a subscriber that could stall or exhaust the engine: redirects are
// never followed (a 3xx is just a failed attempt), one deadline covers the whole
// exchange (connect, headers and body), and at most the first 4 KiB of a response
// is kept (enough to read an error; too little to read back an internal service
// through the delivery log); the rest is discarded with the connection. Every
// connection goes through the address policy (net/guarded-connect.ts, SSRF).
import type { Dispatcher } from 'undici';
import { newPool, type Pool } from '../net/undici.js';
import type { IncomingHttpHeaders } from 'node:http';
import { Fifo } from './queues.js';
import { systemClock, type Timer } from '../clock.js';
import { guardedConnector } from '../net/guarded-connect.js';
import type { AddressPolicy } from '../net/address-policy.js';

export const MAX_RESPONSE_BYTES = 4 * 1024;

export interface SendResult {
  durationMs: number;
  response: { status: number; headers: Record<string, string>; body: string; truncated: boolean } | null;
  /** The network error or timeout, for a person to read; null when a response came. */
  error: string | null;
  /** Set when the deadline ended the attempt (the endpoint kept the connection without a complete answer). */
  timedOut?: true;
}

interface Target {
  pool: Pool;
  path: string;
}

export interface HttpSenderOptions {
  timeoutMs: number;
  /** The shorter deadline of an attempt to an endpoint that keeps timing out (default: a fifth of timeoutMs, at least 1 s). */
  slowTimeoutMs?: number;
  /** Connections per origin; the engine's global concurrency, so one origin shared by several subscriptions never queues behind a slow one. */
  connections: number;
  maxResponseBytes?: number;
  /** Where connections may go (SSRF); checked on every connection. */
  policy: AddressPolicy;
}

function flattenHeaders(raw: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name in raw) {
    const v = raw[name];
    if (v !== undefined) out[name] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}

/**
 * One attempt: undici's handler for it, and the abort signal the sender's deadline
 * timer (or abortAll) pulls. It settles exactly once, through `end`.
 */
class Attempt implements Dispatcher.DispatchHandler {
  aborted = false;
  reason: Error | undefined;
  done = false;
  private controller: Dispatcher.DispatchController | null = null;
  private status = 0;
  private headers: Record<string, string> = {};
  private readonly chunks: Buffer[] = [];
  private size = 0;

  constructor(
    readonly started: number,
    readonly deadline: number,
    private readonly limit: number,
    private readonly sender: { settle(a: Attempt): void; describe(a: Attempt, err: unknown): string },
    private readonly resolve: (result: SendResult) => void,
  ) {}

  abort(reason: Error): void {
    if (this.aborted || this.done) return;
    this.aborted = true;
    this.reason = reason;
    // Before the request reached a connection there is nothing to cut: onRequestStart does it.
    this.controller?.abort(reason);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.aborted) controller.abort(this.reason!);
  }

  onResponseStart(_c: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders): void {
    if (statusCode < 200) return; // informational (1xx): the real answer follows
    this.status = statusCode;
    this.headers = flattenHeaders(headers);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.done) return;
    if (this.size + chunk.length <= this.limit) {
      this.chunks.push(chunk);
      this.size += chunk.length;
      return;
    }
    this.chunks.push(chunk.subarray(0, this.limit - this.size));
    this.respond(true);
    // The rest is not read: the connection goes (undici closes it on abort).
    controller.abort(new Error('response body over the size limit'));
  }

  onResponseEnd(): void {
    if (!this.done) this.respond(false);
  }

  onResponseError(_c: Dispatcher.DispatchController | undefined, err: Error): void {
    this.fail(err);
  }

  fail(err: unknown): void {
    if (this.done) return;
    const result: SendResult = { durationMs: this.elapsed(), response: null, error: this.sender.describe(this, err) };
    if (this.reason?.message === 'timeout') result.timedOut = true;
    this.finish(result);
  }

  private respond(truncated: boolean): void {
    const c = this.chunks;
    const text = c.length === 0 ? '' : c.length === 1 ? c[0].toString('utf8') : Buffer.concat(c).toString('utf8');
    this.finish({
      durationMs: this.elapsed(),
      response: { status: this.status, headers: this.headers, body: text, truncated },
      error: null,
    });
  }

  private finish(result: SendResult): void {
    this.done = true;
    this.sender.settle(this);
    this.resolve(result);
  }

  private elapsed(): number {
    return Math.round(performance.now() - this.started);
  }
}

export function describeError(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  // A host with several addresses fails with an AggregateError whose own message is empty.
  const inner = err instanceof AggregateError && err.errors.length > 0 && !err.message ? (err.errors[0] as Error) : err;
  if (inner.name === 'AddressRefusedError') return inner.message;
  const code = (inner as NodeJS.ErrnoException).code;
  const message = inner.message || inner.name;
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}

export class HttpSender {
  private readonly pools = new Map<string, Pool>();
  private readonly targets = new Map<string, Target>();
  /**
   * Attempts in start order, one queue per deadline length (normal, and the shorter one
   * for endpoints that keep timing out). Within a queue every attempt has the same
   * timeout, so deadlines come in start order and one timer (for the oldest unfinished
   * attempt of either queue) enforces them all.
   */
  private readonly inFlight = [new Fifo<Attempt>(), new Fifo<Attempt>()];
  private readonly timeouts: [number, number];
  /** Real time (never the service's clock): a network deadline must pass even when the service's time is frozen. */
  private timer: Timer | null = null;
  private timerAt = Infinity;
  private readonly maxBytes: number;
  private readonly connector: ReturnType<typeof guardedConnector>;

  constructor(private readonly options: HttpSenderOptions) {
    this.maxBytes = options.maxResponseBytes ?? MAX_RESPONSE_BYTES;
    const slow = options.slowTimeoutMs ?? Math.max(1000, Math.round(options.timeoutMs / 5));
    this.timeouts = [options.timeoutMs, Math.min(options.timeoutMs, slow)];
    this.connector = guardedConnector(options.policy);
  }

  private target(url: string): Target {
    let t = this.targets.get(url);
    if (t) return t;
    const u = new URL(url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error(`unsupported URL scheme "${u.protocol}"`);
    let pool = this.pools.get(u.origin);
    if (!pool) {
      pool = newPool(u.origin, { connections: this.options.connections, pipelining: 1, connect: this.connector });
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
    for (const queue of this.inFlight)
      for (let head = queue.peek(); head && (head.done || head.deadline <= now); head = queue.peek()) {
        queue.shift();
        head.abort(new Error('timeout'));
      }
    this.arm();
  };

  private arm(): void {
    const next = Math.min(this.inFlight[0].peek()?.deadline ?? Infinity, this.inFlight[1].peek()?.deadline ?? Infinity);
    // A short deadline can come after a long one: the timer follows the earliest.
    if (next === Infinity || (this.timer && this.timerAt <= next)) return;
    systemClock.clearTimeout(this.timer);
    this.timerAt = next;
    this.timer = systemClock.setTimeout(this.onDeadline, Math.max(0, next - performance.now()) + 1);
    this.timer.unref();
  }

  /** For Attempt: what a person reads about an attempt that got no response. */
  describe(attempt: Attempt, err: unknown): string {
    return attempt.reason?.message === 'timeout'
      ? `Timed out after ${Math.round(attempt.deadline - attempt.started)} ms without a complete response`
      : attempt.aborted
        ? 'Aborted: the delivery engine stopped'
        : describeError(err);
  }

  /** For Attempt: it ended. */
  settle(_attempt: Attempt): void {
    // Finished attempts leave from the front; one that hangs there keeps the rest until its deadline.
    for (const queue of this.inFlight) while (queue.peek()?.done) queue.shift();
    if (this.inFlight.every((q) => q.length === 0) && this.timer) {
      systemClock.clearTimeout(this.timer);
      this.timer = null;
    }
  }

  /**
   * `body` as bytes when the caller sends the same body more than once (undici would
   * encode a string each time). `slow`: the endpoint keeps timing out, so the attempt
   * gets the shorter deadline and holds its slot less long. Never rejects.
   */
  send(url: string, headers: Record<string, string>, body: string | Buffer, slow = false): Promise<SendResult> {
    const started = performance.now();
    let attempt!: Attempt;
    const result = new Promise<SendResult>((resolve) => {
      attempt = new Attempt(started, started + this.timeouts[slow ? 1 : 0], this.maxBytes, this, resolve);
    });
    this.inFlight[slow ? 1 : 0].push(attempt);
    this.arm();
    try {
      const { pool, path } = this.target(url);
      // Errors, synchronous ones included, reach the handler's onResponseError.
      pool.dispatch({ path, method: 'POST', headers, body }, attempt);
    } catch (err) {
      attempt.fail(err);
    }
    return result;
  }

  /** Ends every attempt in flight now (they resolve with an error). */
  abortAll(): void {
    for (const queue of this.inFlight) for (let a = queue.shift(); a; a = queue.shift()) a.abort(new Error('stopped'));
    systemClock.clearTimeout(this.timer);
    this.timer = null;
  }

  async close(): Promise<void> {
    const pools = [...this.pools.values()];
    this.pools.clear();
    this.targets.clear();
    await Promise.all(pools.map((p) => p.destroy().catch(() => undefined)));
  }
}
