// One HTTP attempt of a delivery, over the delivery client's keep-alive pools (one per
// origin: net/h1-client.ts, our own lean HTTP/1.1 client; docs/architecture.md, "The
// delivery client"). Guards against a subscriber that could stall or exhaust the engine:
// redirects are never followed (a 3xx is just a failed attempt), one deadline covers the
// whole exchange (connect, headers and body), and at most the first 4 KiB of a response
// is kept (enough to read an error; too little to read back an internal service
// through the delivery log); the rest is discarded with the connection. Every
// connection goes through the address policy (net/h1-connection.ts, SSRF).
import { Fifo } from './queues.js';
import { systemClock, type Timer } from '../clock.js';
import { H1Client, type H1Pool } from '../net/h1-client.js';
import { Attempt, type SendListener, type SendResult } from './send-attempt.js';
import { requestBytes, requestHead } from '../net/h1-request.js';
import type { AddressPolicy } from '../net/address-policy.js';
import type { ConnectionOptions } from 'node:tls';

export const MAX_RESPONSE_BYTES = 4 * 1024;
export type { SendListener, SendResult } from './send-attempt.js';

interface Target {
  pool: H1Pool;
  /** The request line and Host (h1-request.ts). */
  head: string;
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
  /** Extra TLS options for every connection (a test's own CA); certificates are always checked. */
  tls?: ConnectionOptions;
}

const resolveWith: SendListener<(result: SendResult) => void> = (result, resolve) => resolve(result);

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
  private readonly client: H1Client;
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
  /** Ended attempts whose listeners are told in a microtask (never inside the client's read or write). */
  private readonly ended = new Fifo<Attempt>();
  private telling = false;

  constructor(options: HttpSenderOptions) {
    this.maxBytes = options.maxResponseBytes ?? MAX_RESPONSE_BYTES;
    const slow = options.slowTimeoutMs ?? Math.max(1000, Math.round(options.timeoutMs / 5));
    this.timeouts = [options.timeoutMs, Math.min(options.timeoutMs, slow)];
    this.client = new H1Client({ connections: options.connections, policy: options.policy, tls: options.tls });
  }

  private target(url: string): Target {
    let t = this.targets.get(url);
    if (t) return t;
    const u = new URL(url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error(`unsupported URL scheme "${u.protocol}"`);
    // Distinct URLs are few (one per subscription); the cap only guards memory.
    if (this.targets.size > 10_000) this.targets.clear();
    t = { pool: this.client.pool(u), head: requestHead(u) };
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
  settle(attempt: Attempt): void {
    // Finished attempts leave from the front; one that hangs there keeps the rest until its deadline.
    const normal = this.inFlight[0];
    const slow = this.inFlight[1];
    while (normal.peek()?.done) normal.shift();
    while (slow.peek()?.done) slow.shift();
    // No closure per attempt (an `every` over the two queues made one each time).
    if (normal.length === 0 && slow.length === 0 && this.timer) {
      systemClock.clearTimeout(this.timer);
      this.timer = null;
    }
    this.ended.push(attempt);
    if (!this.telling) {
      this.telling = true;
      queueMicrotask(this.tell);
    }
  }

  /** Tells ended attempts' listeners, in the order they ended (a listener may start more). */
  private readonly tell = (): void => {
    this.telling = false;
    for (let a = this.ended.shift(); a; a = this.ended.shift()) {
      const result = a.result!;
      a.result = null;
      try {
        a.listener(result, a.ctx);
      } catch (err) {
        console.error('[delivery] a send listener failed:', err);
      }
    }
  };

  /**
   * `body` as bytes when the caller sends the same body more than once (a string is
   * encoded each time). `slow`: the endpoint keeps timing out, so the attempt
   * gets the shorter deadline and holds its slot less long. Never rejects.
   */
  send(url: string, headers: Record<string, string>, body: string | Buffer, slow = false): Promise<SendResult> {
    return new Promise<SendResult>((resolve) => this.start(url, headers, body, slow, resolveWith, resolve));
  }

  /**
   * send() without a promise: `listener(result, ctx)` is called once the attempt ended,
   * always in a later microtask (never from inside this call). For the engine, which
   * starts tens of thousands a second: no promise, async frame or closure per attempt.
   */
  start<C>(url: string, headers: Record<string, string>, body: string | Buffer, slow: boolean, listener: SendListener<C>, ctx: C): void {
    const started = performance.now();
    const deadline = started + this.timeouts[slow ? 1 : 0];
    const attempt = new Attempt(started, deadline, this.maxBytes, this, listener as SendListener<unknown>, ctx);
    this.inFlight[slow ? 1 : 0].push(attempt);
    this.arm();
    try {
      const { pool, head } = this.target(url);
      attempt.request = requestBytes(head, headers, body);
      attempt.pool = pool;
      // Errors, synchronous ones included, reach the attempt's onError.
      pool.dispatch(attempt);
    } catch (err) {
      attempt.fail(err);
    }
  }

  /** Ends every attempt in flight now (they resolve with an error). */
  abortAll(): void {
    for (const queue of this.inFlight) for (let a = queue.shift(); a; a = queue.shift()) a.abort(new Error('stopped'));
    systemClock.clearTimeout(this.timer);
    this.timer = null;
  }

  async close(): Promise<void> {
    this.targets.clear();
    this.client.close();
  }
}
