// One keep-alive connection of the delivery client (h1-client.ts): a socket opened
// through the address policy (as net/guarded-connect.ts does for undici: a host written
// as an address is checked before connecting, a name is resolved through guardedLookup,
// and the address actually connected is checked again before a request is written), one
// request at a time, its response read by a ResponseParser.
//
// Plain TCP sockets read into ONE buffer shared by every connection (net's `onread`
// option, parsed synchronously in the callback, as Node's own HTTP server does): no 64 KiB
// block is allocated per read. TLS sockets read as usual ('data').
import { connect as netConnect, isIP, type Socket } from 'node:net';
import { connect as tlsConnect, type ConnectionOptions } from 'node:tls';
import { AddressRefusedError, addressRefusal, guardedLookup, type AddressPolicy } from './address-policy.js';
import { ResponseParser, type ResponseHandler } from './h1-parser.js';

/** A request as a connection carries it. */
export interface Exchange extends ResponseHandler {
  /** The whole request (h1-request.ts). */
  readonly request: Buffer;
  /** Ended (answered, failed or aborted): a pool drops it from its queue. */
  readonly ended: boolean;
  /** Already retried once on a fresh connection after a keep-alive race. */
  retried: boolean;
  /** The connection carrying it, while one does. */
  connection: H1Connection | null;
  onComplete(): void;
  onError(err: Error): void;
}

/** What a connection tells its pool. */
export interface ConnectionOwner {
  /** Ready for a request: connected and checked, or done with the last response and kept alive. */
  free(c: H1Connection): void;
  /** Closed. `connectError`: it never became ready. */
  gone(c: H1Connection, connectError: Error | null): void;
  /** `ex` met a closed keep-alive connection before any byte of its answer: send it again on a fresh one. */
  retry(ex: Exchange): void;
}

export interface Endpoint {
  secure: boolean;
  /** The host without IPv6 brackets. */
  host: string;
  port: number;
  policy: AddressPolicy;
  /** Extra TLS options (a test's CA); certificates are always checked. */
  tls?: ConnectionOptions;
  /** The latest TLS session the server gave a connection of this origin: the next connection resumes it (as undici does). */
  session?: Buffer;
}

/** How long a connection may take to be ready (undici's connect timeout). */
const CONNECT_TIMEOUT_MS = 10_000;
/** How long an idle connection is kept without the server's keep-alive hint (undici's default). */
const DEFAULT_IDLE_MS = 4_000;
/** Taken off the server's `keep-alive: timeout=N`, so the client lets go first. */
const IDLE_MARGIN_MS = 1_000;

let sharedReadBuffer: Buffer | null = null;
const lookups = new WeakMap<AddressPolicy, ReturnType<typeof guardedLookup>>();

function lookupFor(policy: AddressPolicy): ReturnType<typeof guardedLookup> {
  let l = lookups.get(policy);
  if (!l) lookups.set(policy, (l = guardedLookup(policy)));
  return l;
}

export class H1Connection {
  private readonly socket: Socket;
  private readonly parser = new ResponseParser();
  private exchange: Exchange | null = null;
  private ready = false;
  private error: Error | null = null;
  /** Responses read to their end on this connection. */
  private served = 0;
  /** When it became idle (performance.now()), and how long it may stay so. */
  idleSince = 0;
  idleMs = DEFAULT_IDLE_MS;

  /** Throws AddressRefusedError when the host is an address the policy refuses. */
  constructor(
    private readonly owner: ConnectionOwner,
    private readonly to: Endpoint,
    /** The exchange this connection was opened for (a retry), else the pool's next one. */
    readonly first: Exchange | null = null,
  ) {
    const { host, port, policy } = to;
    if (isIP(host) !== 0) {
      const refusal = addressRefusal(host, host, policy);
      if (refusal) throw new AddressRefusedError(refusal);
    }
    const lookup = lookupFor(policy);
    if (to.secure) {
      const servername = isIP(host) === 0 ? host : undefined;
      const session = to.session;
      this.socket = tlsConnect({ ...to.tls, host, port, servername, lookup, session, ALPNProtocols: ['http/1.1'] });
      this.socket.once('secureConnect', this.onConnect);
      this.socket.on('session', (ticket: Buffer) => (to.session = ticket));
      this.socket.on('data', (chunk: Buffer) => this.read(chunk, 0, chunk.length));
    } else {
      sharedReadBuffer ??= Buffer.allocUnsafe(64 * 1024);
      const callback = (n: number, buf: Buffer): boolean => (this.read(buf, 0, n), true);
      this.socket = netConnect({ host, port, lookup, onread: { buffer: sharedReadBuffer, callback } });
      this.socket.once('connect', this.onConnect);
    }
    this.socket.setTimeout(CONNECT_TIMEOUT_MS, () => this.socket.destroy(new Error(`connect timed out after ${CONNECT_TIMEOUT_MS} ms`)));
    this.socket.on('error', (err) => (this.error ??= err));
    this.socket.on('close', this.onClose);
  }

  private readonly onConnect = (): void => {
    const s = this.socket;
    const remote = s.remoteAddress;
    const refusal =
      remote === undefined ? 'Refused: the connected address is unknown.' : addressRefusal(this.to.host, remote, this.to.policy);
    if (refusal) return void s.destroy(new AddressRefusedError(refusal));
    s.setTimeout(0);
    s.setNoDelay(true);
    s.setKeepAlive(true, 60_000);
    this.ready = true;
    this.owner.free(this);
  };

  /** Sends `ex` (the connection is free). */
  start(ex: Exchange): void {
    this.exchange = ex;
    ex.connection = this;
    this.parser.reset(ex);
    this.socket.write(ex.request);
  }

  /** Ends `ex` now with `reason` and gives up the connection (a deadline, the engine stopping). */
  abort(ex: Exchange, reason: Error): void {
    if (this.exchange !== ex) return;
    this.detach();
    this.socket.destroy();
    ex.onError(reason);
  }

  /** Closes the connection; an exchange on it ends with an error. */
  destroy(): void {
    this.socket.destroy();
  }

  private read(buf: Buffer, start: number, end: number): void {
    const ex = this.exchange;
    // Bytes nobody asked for: the connection is out of step with the server.
    if (!ex) return void this.socket.destroy();
    try {
      this.parser.execute(buf, start, end);
    } catch (err) {
      this.detach();
      this.socket.destroy();
      return ex.onError(err as Error);
    }
    if (this.parser.done) this.complete(ex);
    else if (this.parser.stopped) {
      // The handler has its answer (its limit was reached): the rest is not read, the connection goes.
      this.detach();
      this.socket.destroy();
    }
  }

  private complete(ex: Exchange): void {
    this.detach();
    this.served++;
    const keep = this.parser.keepAlive;
    if (keep) {
      const hint = this.parser.keepAliveMs;
      this.idleMs = hint < 0 ? DEFAULT_IDLE_MS : Math.min(hint - IDLE_MARGIN_MS, 600_000);
    }
    if (!keep || this.idleMs <= 0) this.socket.destroy();
    ex.onComplete();
    if (keep && this.idleMs > 0) this.owner.free(this);
  }

  private detach(): void {
    const ex = this.exchange;
    if (ex) ex.connection = null;
    this.exchange = null;
  }

  private readonly onClose = (): void => {
    const ex = this.exchange;
    this.detach();
    this.owner.gone(this, this.ready ? null : (this.error ?? new Error('the connection closed before it was ready')));
    if (!ex || ex.ended) return;
    if (this.parser.finish()) return ex.onComplete(); // a body read to the close
    // A reused connection the server closed (keep-alive race) before any byte of the answer: once more, fresh.
    if (this.served > 0 && !this.parser.received && !ex.retried) return this.owner.retry(ex);
    const why = this.parser.received ? 'before its response was complete' : 'without answering';
    const err = this.error ?? new Error(`the endpoint closed the connection ${why}`);
    ex.onError(err);
  };
}
