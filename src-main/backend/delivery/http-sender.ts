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
import { H1Client, type Exchange, type H1Pool } from '../net/h1-client.js';
import type { H1Connection } from '../net/h1-connection.js';
import { requestBytes, requestHead } from '../net/h1-request.js';
import type { AddressPolicy } from '../net/address-policy.js';
import type { ConnectionOptions } from 'node:tls';

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

const NO_HEADERS: Record<string, string> = {};

/**
 * One attempt: the client's exchange for it, ended by its response, an error, the
 * sender's deadline timer or abortAll. It settles exactly once, through `finish`.
 */
class Attempt implements Exchange {
  aborted = false;
  reason: Error | undefined;
  done = false;
  request: Buffer = EMPTY;
  retried = false;
  connection: H1Connection | null = null;
  pool: H1Pool | null = null;
  private status = 0;
  private headers = NO_HEADERS;
  private chunks: Buffer[] | null = null;
  private size = 0;

  constructor(
    readonly started: number,
    readonly deadline: number,
    private readonly limit: number,
    private readonly sender: { settle(a: Attempt): void; describe(a: Attempt, err: unknown): string },
    private readonly resolve: (result: SendResult) => void,
  ) {}

  get ended(): boolean {
    return this.done;
  }

  abort(reason: Error): void {
    if (this.aborted || this.done) return;
    this.aborted = true;
    this.reason = reason;
    if (this.pool) this.pool.abort(this, reason);
    else this.fail(reason);
  }

  onHead(status: number, headers: Record<string, string>): void {
    this.status = status;
    this.headers = headers;
  }

  onBody(buf: Buffer, start: number, end: number): boolean {
    if (this.done) return false;
    const room = this.limit - this.size;
    const n = Math.min(end - start, room);
    // The read buffer is the client's, reused: keep a copy.
    if (n > 0) {
      const copy = Buffer.allocUnsafe(n);
      buf.copy(copy, 0, start, start + n);
      (this.chunks ??= []).push(copy);
    }
    this.size += n;
    if (end - start <= room) return true;
    this.respond(true);
    return false; // the rest is not read: the connection goes
  }

  onComplete(): void {
    if (!this.done) this.respond(false);
  }

  onError(err: Error): void {
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
    const text = c === null ? '' : c.length === 1 ? c[0].toString('utf8') : Buffer.concat(c).toString('utf8');
    this.finish({
      durationMs: this.elapsed(),
      response: { status: this.status, headers: this.headers, body: text, truncated },
      error: null,
    });
  }

  private finish(result: SendResult): void {
    this.done = true;
    this.request = EMPTY;
    this.sender.settle(this);
    this.resolve(result);
  }

  private elapsed(): number {
    return Math.round(performance.now() - this.started);
  }
}

const EMPTY = Buffer.alloc(0);

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
  settle(_attempt: Attempt): void {
    // Finished attempts leave from the front; one that hangs there keeps the rest until its deadline.
    for (const queue of this.inFlight) while (queue.peek()?.done) queue.shift();
    if (this.inFlight.every((q) => q.length === 0) && this.timer) {
      systemClock.clearTimeout(this.timer);
      this.timer = null;
    }
  }

  /**
   * `body` as bytes when the caller sends the same body more than once (a string is
   * encoded each time). `slow`: the endpoint keeps timing out, so the attempt
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
      const { pool, head } = this.target(url);
      attempt.request = requestBytes(head, headers, body);
      attempt.pool = pool;
      // Errors, synchronous ones included, reach the attempt's onError.
      pool.dispatch(attempt);
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
    this.targets.clear();
    this.client.close();
  }
}
