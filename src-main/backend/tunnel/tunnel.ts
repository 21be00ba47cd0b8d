// The ngrok tunnel, exposing the receiver's listener (and nothing else) on a public
// HTTPS URL. States: off (stopped), offline (no authtoken: the receiver works on its
// local URL), connecting, online (with public_url), error (with ngrok's message).
// Guards against: exposing anything but the receiver (the only address ever forwarded
// is targetUrl(), the receiver's loopback listener); the authtoken leaking (it is never
// in a state, a message or an event); start-up hanging without a network (the connect
// is bounded by a timeout, and a listener that arrives late is closed); a failed tunnel
// taking the app down (autostart never throws).
// @ngrok/ngrok is a native module that starts its own runtime threads when loaded, so it
// is loaded on the first connect (there is none without an authtoken), not at start-up.
import type { ChangeBus } from '../bus.js';
import { systemClock, type Timer } from '../clock.js';
import type { TunnelState } from '@shared/receiver-types.js';

export interface Tunnel {
  state(): TunnelState;
  /** Starts when an authtoken is configured; otherwise (or on failure) just records the state. Never throws. */
  autostart(): Promise<void>;
  /** Connects with this authtoken (remembered for this run) or the configured one. Resolves with the resulting state. */
  start(authtoken?: string): Promise<TunnelState>;
  stop(): Promise<void>;
  /** Stops and drops the authtoken (a bad or revoked one): offline until another is given. */
  forget(): Promise<void>;
}

/** What the tunnel needs from ngrok: one call that forwards and returns a closable listener. */
export interface NgrokLike {
  forward(config: {
    addr: string;
    authtoken: string;
    server_addr?: string;
    onStatusChange?: (status: string) => void;
  }): Promise<{ url(): string | null; close(): Promise<void> }>;
}

export interface TunnelDeps {
  bus: ChangeBus;
  authtoken?: string;
  /** The receiver's loopback listener, e.g. http://127.0.0.1:4011. */
  targetUrl: () => string;
  /** Bound on connecting (default 20 s): the library can wait a long time without a network. */
  connectTimeoutMs?: number;
  /** ngrok's service address (host:port); tests point it at loopback so nothing leaves the machine. */
  serverAddr?: string;
}

export const NO_TOKEN_MESSAGE = 'No ngrok authtoken: the receiver works on its local URL';

type Listener = Awaited<ReturnType<NgrokLike['forward']>>;

function errorMessage(err: unknown): string {
  const m = err instanceof Error ? err.message : String(err);
  return m || 'ngrok failed without a message';
}

/** A state to show: the authtoken never appears in it, even inside ngrok's own messages. */
function scrubbed(next: TunnelState, token: string | undefined): TunnelState {
  const s: TunnelState = { status: next.status };
  if (next.public_url) s.public_url = next.public_url;
  if (next.message) s.message = token ? next.message.split(token).join('[authtoken]') : next.message;
  return s;
}

/** ngrok's forward(), bounded: a listener that arrives after the timeout is closed, not kept. */
async function forwardWithin(lib: NgrokLike, options: Parameters<NgrokLike['forward']>[0], timeoutMs: number): Promise<Listener> {
  const attempt = lib.forward(options);
  let timer: Timer | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = systemClock.setTimeout(
      () => reject(new Error(`No answer from ngrok within ${Math.round(timeoutMs / 1000)} s (is there a network?)`)),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([attempt, timeout]);
  } catch (err) {
    attempt.then(
      (late) => late.close().catch(() => undefined),
      () => undefined,
    );
    throw err;
  } finally {
    systemClock.clearTimeout(timer);
  }
}

/** The real library, loaded on first use. */
const lazyNgrok: NgrokLike = {
  async forward(config) {
    const ngrok = (await import('@ngrok/ngrok')).default as unknown as NgrokLike;
    return ngrok.forward(config);
  },
};

const sameState = (a: TunnelState, b: TunnelState) => a.status === b.status && a.public_url === b.public_url && a.message === b.message;

export function createTunnel(deps: TunnelDeps, lib: NgrokLike = lazyNgrok): Tunnel {
  let token = deps.authtoken?.trim() || undefined;
  let current: TunnelState = token ? { status: 'off' } : { status: 'offline', message: NO_TOKEN_MESSAGE };
  let listener: Listener | null = null;
  /** Bumped by every start and stop: results of an older attempt are discarded. */
  let generation = 0;
  const timeoutMs = deps.connectTimeoutMs ?? 20_000;
  const set = (next: TunnelState) => {
    const prev = current;
    current = scrubbed(next, token);
    if (!sameState(current, prev)) deps.bus.emit({ kind: 'tunnel', state: current.status });
  };

  const closeListener = async () => {
    const l = listener;
    listener = null;
    if (l) await l.close().catch(() => undefined);
  };

  async function start(authtoken?: string): Promise<TunnelState> {
    if (authtoken !== undefined) token = authtoken.trim() || undefined;
    const gen = ++generation;
    if (listener) {
      await closeListener();
      if (gen !== generation) return { ...current };
    }
    if (!token) {
      set({ status: 'offline', message: NO_TOKEN_MESSAGE });
      return { ...current };
    }
    set({ status: 'connecting' });
    const onStatusChange = (status: string) => {
      // ngrok reconnects by itself; say so while it does, and come back when it has.
      if (gen !== generation || !listener) return;
      if (status === 'closed' && current.status === 'online')
        set({ status: 'connecting', message: 'Connection to ngrok lost; reconnecting.' });
      if (status === 'connected' && current.status === 'connecting') set({ status: 'online', public_url: listener.url() ?? undefined });
    };
    try {
      const l = await forwardWithin(
        lib,
        { addr: deps.targetUrl(), authtoken: token, onStatusChange, ...(deps.serverAddr ? { server_addr: deps.serverAddr } : {}) },
        timeoutMs,
      );
      if (gen !== generation) {
        await l.close().catch(() => undefined);
        return { ...current };
      }
      listener = l;
      const url = l.url();
      if (!url) throw new Error('ngrok connected but gave no public URL');
      set({ status: 'online', public_url: url });
    } catch (err) {
      if (gen === generation) {
        await closeListener();
        set({ status: 'error', message: errorMessage(err) });
      }
    }
    return { ...current };
  }

  return {
    state: () => ({ ...current }),
    async autostart() {
      if (!token) return set({ status: 'offline', message: NO_TOKEN_MESSAGE });
      await start().catch((err: unknown) => set({ status: 'error', message: errorMessage(err) }));
    },
    start,
    async stop() {
      generation++;
      await closeListener();
      set(token ? { status: 'off' } : { status: 'offline', message: NO_TOKEN_MESSAGE });
    },
    async forget() {
      token = undefined;
      await this.stop();
    },
  };
}
