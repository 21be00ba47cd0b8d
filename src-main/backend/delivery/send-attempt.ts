// One attempt of HttpSender (http-sender.ts) as the delivery client's exchange
// (net/h1-client.ts): what it keeps of the response (at most `limit` bytes of body) and
// how it ends. The sender owns deadlines and tells the attempt's listener.
import type { Exchange, H1Pool } from '../net/h1-client.js';
import type { H1Connection } from '../net/h1-connection.js';

export interface SendResult {
  durationMs: number;
  response: { status: number; headers: Record<string, string>; body: string; truncated: boolean } | null;
  /** The network error or timeout, for a person to read; null when a response came. */
  error: string | null;
  /** Set when the deadline ended the attempt (the endpoint kept the connection without a complete answer). */
  timedOut?: true;
}

const NO_HEADERS: Record<string, string> = {};
const EMPTY = Buffer.alloc(0);

/** Told an attempt's result with the context it was started with (HttpSender.start). */
export type SendListener<C> = (result: SendResult, ctx: C) => void;

/**
 * One attempt: the client's exchange for it, ended by its response, an error, the
 * sender's deadline timer or abortAll. It settles exactly once, through `finish`.
 */
export class Attempt implements Exchange {
  aborted = false;
  reason: Error | undefined;
  done = false;
  request: Buffer = EMPTY;
  retried = false;
  connection: H1Connection | null = null;
  pool: H1Pool | null = null;
  /** Set when it ended, until its listener was told. */
  result: SendResult | null = null;
  private status = 0;
  private headers = NO_HEADERS;
  private chunks: Buffer[] | null = null;
  /** The body's text when it came whole in one read (onBody). */
  private text: string | null = null;
  private size = 0;

  constructor(
    readonly started: number,
    readonly deadline: number,
    private readonly limit: number,
    private readonly sender: { settle(a: Attempt): void; describe(a: Attempt, err: unknown): string },
    readonly listener: SendListener<unknown>,
    readonly ctx: unknown,
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

  onBody(buf: Buffer, start: number, end: number, last: boolean): boolean {
    if (this.done) return false;
    const room = this.limit - this.size;
    const n = Math.min(end - start, room);
    // A whole body in one read (the usual small answer): its text at once, no copy kept first.
    if (n > 0 && last && n === end - start && this.chunks === null) this.text = buf.toString('utf8', start, end);
    else if (n > 0) {
      // The read buffer is the client's, reused: keep a copy.
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
    const text = this.text ?? (c === null ? '' : c.length === 1 ? c[0].toString('utf8') : Buffer.concat(c).toString('utf8'));
    this.finish({
      durationMs: this.elapsed(),
      response: { status: this.status, headers: this.headers, body: text, truncated },
      error: null,
    });
  }

  private finish(result: SendResult): void {
    this.done = true;
    this.request = EMPTY;
    this.result = result;
    this.sender.settle(this);
  }

  private elapsed(): number {
    return Math.round(performance.now() - this.started);
  }
}
