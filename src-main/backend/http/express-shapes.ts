// Keeps the requests and responses that Express handles from giving node:http's code a
// new hidden class (map) each. Express gives each of them its app's prototype
// (`Object.setPrototypeOf`), and V8 (Node 20) does not share the maps of properties
// added to an object after its prototype was changed: every `req.params = …`,
// `res.locals = …` after the swap makes a map of that one object. node:http's and
// streams' functions, the hot GET's included, then see a new map with every request
// Express served and their inline caches go megamorphic (about 2 µs more on each GET
// /documents/{id} after the bench's 50 set-up requests; docs/benchmark.md, "Figure 1
// and Express"). Adding those properties before the swap, in one order, gives them
// shared maps; Express then only assigns them.
import type { IncomingMessage, ServerResponse } from 'node:http';

// What Express 5 and its router add to a request and a response after the swap, in the
// order they add them (measured: the own keys an Express-handled request gains). A key
// set here has the value it already shows (its prototype's, or undefined), so a read
// sees the same; none of them is an accessor anywhere on the chain.
const REQUEST_KEYS = ['res', 'next', 'baseUrl', 'originalUrl', '_parsedUrl', 'params', '_eventsCount', 'body', 'route'] as const;
const RESPONSE_KEYS = ['locals', 'statusCode', 'statusMessage'] as const;
// The router's own symbol keys (not exported), learnt from the first requests it served.
const ROUTER_SYMBOL = /^router\./;
const learnt = new Set<symbol>();

/** Gives `req` and `res` the properties Express will add, before it changes their prototypes. */
export function presetExpressFields(req: IncomingMessage, res: ServerResponse): void {
  ownAsShown(req as unknown as Record<PropertyKey, unknown>, REQUEST_KEYS);
  for (const s of learnt) (req as unknown as Record<symbol, unknown>)[s] = undefined;
  ownAsShown(res as unknown as Record<PropertyKey, unknown>, RESPONSE_KEYS);
  if (learnt.size === 0) res.once('finish', () => learnSymbols(req));
}

/** Makes each key an own property of `o` holding the value `o` shows for it now. */
function ownAsShown(o: Record<PropertyKey, unknown>, keys: readonly string[]): void {
  for (const k of keys) {
    const shown = o[k];
    o[k] = shown;
  }
}

function learnSymbols(req: IncomingMessage): void {
  for (const s of Object.getOwnPropertySymbols(req)) if (s.description && ROUTER_SYMBOL.test(s.description)) learnt.add(s);
}
