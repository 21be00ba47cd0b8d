// The delivery engine's HTTP/1.1 client: POSTs over keep-alive connection pools, one per
// origin (docs/architecture.md, "The delivery client"). It does only what a delivery needs
// (a request written at once, a strict bounded response parser, at most `connections`
// open per origin, one request at a time on each), so each attempt costs a fraction of
// what a general client (undici) spends, and it keeps no 64 KiB read block per response
// (h1-connection.ts). Deadlines are the caller's (delivery/http-sender.ts): it aborts an
// exchange by `abort()`.
//
// A pool reuses its idle connections last-in first-out (the warmest first), opens a new
// one while requests wait and fewer than `connections` are open, and queues the rest.
// A connection that closes while idle is dropped. A request whose reused connection turns
// out to be closed by the server before any byte of the answer came (the keep-alive race:
// the server timed the idle connection out as the request went) is sent once more on a
// fresh connection; a second failure is the attempt's error.
import type { ConnectionOptions } from 'node:tls';
import { systemClock, type Timer } from '../clock.js';
import { Fifo } from '../delivery/queues.js';
import type { AddressPolicy } from './address-policy.js';
import { H1Connection, type ConnectionOwner, type Endpoint, type Exchange } from './h1-connection.js';

export type { Exchange } from './h1-connection.js';

export interface H1ClientOptions {
  /** Connections per origin at most. */
  connections: number;
  /** Where connections may go (SSRF); checked on every connection. */
  policy: AddressPolicy;
  /** Extra TLS options (a test's CA). */
  tls?: ConnectionOptions;
}

const SWEEP_MS = 1000;

export class H1Pool implements ConnectionOwner {
  /** Idle connections, the most recently used last (taken first). */
  private readonly idle: H1Connection[] = [];
  private readonly all = new Set<H1Connection>();
  private readonly waiting = new Fifo<Exchange>();
  /** Connections not ready yet. */
  private readonly opening = new Set<H1Connection>();
  private sweeper: Timer | null = null;
  private closed = false;

  constructor(
    private readonly to: Endpoint,
    private readonly max: number,
  ) {}

  /** Sends `ex` on an idle connection, or a new one, or when one is free. */
  dispatch(ex: Exchange): void {
    if (this.closed) return ex.onError(new Error('the sender is closed'));
    const c = this.takeIdle();
    if (c) return c.start(ex);
    this.waiting.push(ex);
    this.grow();
  }

  /** Ends `ex` now with `reason`, wherever it is. */
  abort(ex: Exchange, reason: Error): void {
    // A queued one is dropped from the queue when it comes up (it has ended).
    if (ex.connection) ex.connection.abort(ex, reason);
    else ex.onError(reason);
  }

  free(c: H1Connection): void {
    if (!this.all.has(c)) return;
    // Just ready: a connection opened for a retry takes that request first.
    const first = this.opening.delete(c) && c.first && !c.first.ended ? c.first : undefined;
    const next = first ?? this.next();
    if (next) return c.start(next);
    if (this.closed) return c.destroy();
    c.idleSince = performance.now();
    this.idle.push(c);
    this.sweeper ??= systemClock.setInterval(this.sweep, SWEEP_MS).unref();
  }

  gone(c: H1Connection, connectError: Error | null): void {
    if (!this.all.delete(c)) return;
    const i = this.idle.lastIndexOf(c);
    if (i !== -1) this.idle.splice(i, 1);
    this.opening.delete(c);
    if (!connectError) return void (this.waiting.length > 0 && this.grow());
    // Each connection that fails takes one waiting request with it: that request's error.
    const victim = c.first && !c.first.ended ? c.first : this.next();
    victim?.onError(connectError);
    this.grow();
  }

  retry(ex: Exchange): void {
    ex.retried = true;
    if (this.closed) return ex.onError(new Error('the sender is closed'));
    this.open(ex);
  }

  /** Closes every connection; waiting requests end with an error. */
  close(): void {
    this.closed = true;
    for (let ex = this.waiting.shift(); ex; ex = this.waiting.shift()) if (!ex.ended) ex.onError(new Error('the sender is closed'));
    for (const c of [...this.all]) c.destroy();
    this.idle.length = 0;
    this.opening.clear();
    systemClock.clearInterval(this.sweeper);
    this.sweeper = null;
  }

  /** The next waiting request that has not ended. */
  private next(): Exchange | undefined {
    for (let ex = this.waiting.shift(); ex; ex = this.waiting.shift()) if (!ex.ended) return ex;
    return undefined;
  }

  private takeIdle(): H1Connection | undefined {
    const now = performance.now();
    for (let c = this.idle.pop(); c; c = this.idle.pop()) {
      if (now - c.idleSince < c.idleMs) return c;
      c.destroy(); // past the time the server keeps it: do not race its close
    }
    return undefined;
  }

  /** Opens connections for the waiting requests that no connection under way will take. */
  private grow(): void {
    while (!this.closed && this.all.size < this.max && this.opening.size < this.waiting.length) this.open(null);
  }

  private open(first: Exchange | null): void {
    let c: H1Connection;
    try {
      c = new H1Connection(this, this.to, first ?? null);
    } catch (err) {
      // Refused before connecting (an address the policy does not allow).
      const victim = first ?? this.next();
      return victim?.onError(err as Error);
    }
    this.all.add(c);
    this.opening.add(c);
  }

  private readonly sweep = (): void => {
    const now = performance.now();
    for (let i = this.idle.length - 1; i >= 0; i--) {
      const c = this.idle[i];
      if (now - c.idleSince >= c.idleMs) {
        this.idle.splice(i, 1);
        c.destroy();
      }
    }
    if (this.idle.length === 0) {
      systemClock.clearInterval(this.sweeper);
      this.sweeper = null;
    }
  };
}

export class H1Client {
  private readonly pools = new Map<string, H1Pool>();

  constructor(private readonly options: H1ClientOptions) {}

  /** The pool of `url`'s origin (http: or https:). */
  pool(url: URL): H1Pool {
    let pool = this.pools.get(url.origin);
    if (pool) return pool;
    const secure = url.protocol === 'https:';
    if (!secure && url.protocol !== 'http:') throw new Error(`unsupported URL scheme "${url.protocol}"`);
    const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    const port = url.port ? Number(url.port) : secure ? 443 : 80;
    const to: Endpoint = { secure, host, port, policy: this.options.policy, tls: this.options.tls };
    pool = new H1Pool(to, this.options.connections);
    this.pools.set(url.origin, pool);
    return pool;
  }

  /** Closes every pool's connections. */
  close(): void {
    for (const pool of this.pools.values()) pool.close();
    this.pools.clear();
  }
}
