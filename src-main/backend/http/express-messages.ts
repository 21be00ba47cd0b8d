// Builds node:http's requests and responses of a listener with the prototypes its Express
// app gives them (`app.request`, `app.response`), so that the app's `Object.setPrototypeOf`
// on each request and response changes nothing.
//
// Why (docs/benchmark.md, "Figure 3: where a delivery's time goes"): a prototype swap gives
// the object a map (V8's hidden class) that is found again only through a weak cache on
// the map before it, with no path back from the constructor. Once every request of that
// shape is gone (a full garbage collection between bursts of requests), the next request
// gets a new map, and every function that had seen the old one (Express's router,
// `parseurl`, node:http's header code) deoptimizes ("wrong map") and is compiled again:
// in each burst of PUTs. A request built with the app's prototype from the start takes
// the ordinary maps of its constructor, the same for the life of the process.
import { IncomingMessage, ServerResponse } from 'node:http';

/** What an Express app holds the prototypes of its requests and responses in. */
export interface ExpressPrototypes {
  request: object;
  response: object;
}

/** The classes to give node:http's `createServer` (its IncomingMessage and ServerResponse options). */
export interface MessageClasses {
  IncomingMessage: typeof IncomingMessage;
  ServerResponse: typeof ServerResponse;
}

const madeFor = new WeakMap<ExpressPrototypes, MessageClasses>();

/**
 * Subclasses of node:http's IncomingMessage and ServerResponse whose prototypes are the
 * app's request and response from now on: each class's prototype takes the place of the
 * app's (and inherits from it, so Express's methods and `req.app` are found as before).
 * Call before the app serves anything; an app asked again gets the same classes.
 */
export function expressMessageClasses(app: ExpressPrototypes): MessageClasses {
  const made = madeFor.get(app);
  if (made) return made;
  class Request extends IncomingMessage {}
  class Response extends ServerResponse {}
  Object.setPrototypeOf(Request.prototype, app.request);
  Object.setPrototypeOf(Response.prototype, app.response);
  app.request = Request.prototype;
  app.response = Response.prototype;
  // node:http types its ServerResponse option as generic over the request class; this one serves any.
  const classes = { IncomingMessage: Request, ServerResponse: Response as typeof ServerResponse };
  madeFor.set(app, classes);
  return classes;
}
