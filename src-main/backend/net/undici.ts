// The parts of undici the service uses, each loaded from its own file. undici's index
// loads every part of undici at once (fetch, WebSocket, EventSource, caches, mocks,
// interceptors …): about 7 MiB of resident memory from start-up on that the service
// never uses. The types are undici's own (undici-parts.d.ts); behaviour is undici's,
// `request` below being undici's `request()` for a URL (its index builds it the same way).
import PoolClass from 'undici/lib/dispatcher/pool.js';
import AgentClass from 'undici/lib/dispatcher/agent.js';
import build from 'undici/lib/core/connect.js';
import apiRequest from 'undici/lib/api/api-request.js';
import undiciGlobal from 'undici/lib/global.js';
import type { Dispatcher } from 'undici';

export const Pool = PoolClass;
export type Pool = InstanceType<typeof PoolClass>;
export const Agent = AgentClass;
export type Agent = InstanceType<typeof AgentClass>;
export const buildConnector = build;

export type RequestOptions = { dispatcher?: Dispatcher } & Omit<Dispatcher.RequestOptions, 'origin' | 'path' | 'method'> &
  Partial<Pick<Dispatcher.RequestOptions, 'method'>>;

/** undici's `request(url, options)`: on `options.dispatcher`, else undici's global dispatcher. */
export function request(url: string | URL, options: RequestOptions = {}): Promise<Dispatcher.ResponseData> {
  const u = typeof url === 'string' ? new URL(url) : url;
  const { dispatcher = undiciGlobal.getGlobalDispatcher(), ...rest } = options;
  return apiRequest.call(dispatcher, {
    ...rest,
    origin: u.origin,
    path: u.search ? `${u.pathname}${u.search}` : u.pathname,
    method: rest.method ?? (rest.body ? 'PUT' : 'GET'),
  });
}
