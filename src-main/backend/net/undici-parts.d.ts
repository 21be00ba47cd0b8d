// Types for the files of undici that net/undici.ts loads one by one: each is the part of
// undici's own public API (its types) that the file exports.
declare module 'undici/lib/dispatcher/agent.js' {
  import type { Agent } from 'undici';
  const AgentClass: typeof Agent;
  export default AgentClass;
}

declare module 'undici/lib/core/connect.js' {
  import type { buildConnector } from 'undici';
  const build: typeof buildConnector;
  export default build;
}

declare module 'undici/lib/api/api-request.js' {
  import type { Dispatcher } from 'undici';
  /** Dispatcher.prototype.request, called with the dispatcher as `this`. */
  const request: (this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;
  export default request;
}

declare module 'undici/lib/global.js' {
  import type { getGlobalDispatcher, setGlobalDispatcher } from 'undici';
  const global: { getGlobalDispatcher: typeof getGlobalDispatcher; setGlobalDispatcher: typeof setGlobalDispatcher };
  export default global;
}
