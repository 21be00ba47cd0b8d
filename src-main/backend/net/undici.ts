// The parts of undici the service uses, each loaded from its own file, and only by the
// first call that needs it. undici's index loads every part of undici at once (fetch,
// WebSocket, EventSource, caches, mocks, interceptors …): about 7 MiB of resident memory
// from start-up on that the service never uses. Even the parts in use (the pool, its
// HTTP/1 and HTTP/2 clients, the agent, the connector) hold ~2 MiB of V8's heap, so a
// service that sends nothing (a fresh one, or one used only as a receiver) does not load
// them: the first forward, replay or remote call does (~10-30 ms, once). Deliveries do not
// use undici at all (net/h1-client.ts).
// The types are undici's own (undici-parts.d.ts); behaviour is undici's, `request` below
// being undici's `request()` for a URL (its index builds it the same way).
import { createRequire } from 'node:module';
import type AgentClass from 'undici/lib/dispatcher/agent.js';
import type build from 'undici/lib/core/connect.js';
import type apiRequest from 'undici/lib/api/api-request.js';
import type undiciGlobal from 'undici/lib/global.js';
import type { Dispatcher } from 'undici';

// undici is CommonJS: require() loads a file synchronously, where it is first needed.
const load = createRequire(import.meta.url);

export type Agent = InstanceType<typeof AgentClass>;

/** undici's `new Agent(options)`. */
export function newAgent(...args: ConstructorParameters<typeof AgentClass>): Agent {
  const Ctor = load('undici/lib/dispatcher/agent.js') as typeof AgentClass;
  return new Ctor(...args);
}

/** undici's `buildConnector(options)`. */
export function buildConnector(...args: Parameters<typeof build>): ReturnType<typeof build> {
  return (load('undici/lib/core/connect.js') as typeof build)(...args);
}

export type RequestOptions = { dispatcher?: Dispatcher } & Omit<Dispatcher.RequestOptions, 'origin' | 'path' | 'method'> &
  Partial<Pick<Dispatcher.RequestOptions, 'method'>>;

/** undici's `request(url, options)`: on `options.dispatcher`, else undici's global dispatcher. */
export function request(url: string | URL, options: RequestOptions = {}): Promise<Dispatcher.ResponseData> {
  const u = typeof url === 'string' ? new URL(url) : url;
  const { dispatcher = (load('undici/lib/global.js') as typeof undiciGlobal).getGlobalDispatcher(), ...rest } = options;
  return (load('undici/lib/api/api-request.js') as typeof apiRequest).call(dispatcher, {
    ...rest,
    origin: u.origin,
    path: u.search ? `${u.pathname}${u.search}` : u.pathname,
    method: rest.method ?? (rest.body ? 'PUT' : 'GET'),
  });
}
