// The live link to the console API's change stream: reads it with fetch (the token in
// a header), parses server-sent events, hands each change on, and reconnects after a
// drop (the server's retry: hint, backing off to 30 s; a silent link is declared dead
// after 45 s without even a heartbeat). After a reconnect, changes may have been
// missed, so the owner is told to refresh everything.
import { createSseParser } from './sse.js';
import type { Change } from '@shared/api-types.js';

export type LiveState = 'connecting' | 'live' | 'reconnecting' | 'unauthorized' | 'stopped';

export interface LiveStreamOptions {
  url: string;
  token: () => string | null;
  onChange: (change: Change) => void;
  /** Called when the stream is back after a drop (changes may have been missed). */
  onReconnected: () => void;
  onState?: (state: LiveState) => void;
  silenceTimeoutMs?: number;
  maxDelayMs?: number;
}

export class LiveStream {
  private state: LiveState = 'stopped';
  private abort: AbortController | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private watchdog: ReturnType<typeof setTimeout> | null = null;
  private retryMs = 2000;
  private failures = 0;
  private everConnected = false;

  constructor(private readonly opts: LiveStreamOptions) {}

  get current(): LiveState {
    return this.state;
  }

  start(): void {
    if (this.state !== 'stopped') return;
    this.setState('connecting');
    void this.connect();
  }

  stop(): void {
    this.setState('stopped');
    this.abort?.abort();
    this.abort = null;
    if (this.timer) clearTimeout(this.timer);
    if (this.watchdog) clearTimeout(this.watchdog);
    this.timer = this.watchdog = null;
  }

  private setState(s: LiveState): void {
    if (this.state === s) return;
    this.state = s;
    this.opts.onState?.(s);
  }

  private feedWatchdog(): void {
    if (this.watchdog) clearTimeout(this.watchdog);
    this.watchdog = setTimeout(() => this.abort?.abort(), this.opts.silenceTimeoutMs ?? 45_000);
  }

  private async connect(): Promise<void> {
    const abort = new AbortController();
    this.abort = abort;
    const token = this.opts.token();
    try {
      const res = await fetch(this.opts.url, {
        headers: { Accept: 'text/event-stream', ...(token ? { 'X-Console-Token': token } : {}) },
        signal: abort.signal,
        cache: 'no-store',
      });
      if (res.status === 401 || res.status === 403) {
        this.setState('unauthorized');
        return;
      }
      if (!res.ok || !res.body) throw new Error(`stream answered ${res.status}`);
      const parser = createSseParser({
        onActivity: () => this.feedWatchdog(),
        onRetry: (ms) => (this.retryMs = Math.max(250, ms)),
        onMessage: (msg) => {
          if (msg.event === 'ready') {
            this.failures = 0;
            this.setState('live');
            if (this.everConnected) this.opts.onReconnected();
            this.everConnected = true;
          } else if (msg.event === 'change') {
            try {
              this.opts.onChange(JSON.parse(msg.data) as Change);
            } catch {
              // A malformed message is skipped; the next refresh will catch up.
            }
          }
        },
      });
      this.feedWatchdog();
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parser.push(decoder.decode(value, { stream: true }));
      }
    } catch {
      // dropped, refused or aborted: handled below
    } finally {
      if (this.watchdog) clearTimeout(this.watchdog);
    }
    if (this.state === 'stopped' || this.state === 'unauthorized' || this.abort !== abort) return;
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    this.setState('reconnecting');
    this.failures++;
    const backoff = Math.min(this.opts.maxDelayMs ?? 30_000, this.retryMs * 2 ** Math.max(0, this.failures - 1));
    const delay = backoff * (0.8 + Math.random() * 0.4);
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.state === 'reconnecting') void this.connect();
    }, delay);
  }
}
