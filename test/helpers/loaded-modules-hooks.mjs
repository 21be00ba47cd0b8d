// The module hooks of loaded-modules-probe.mjs (they run on Node's hooks thread): each
// URL an import resolves to is posted to the probe.
let port;

export function initialize(data) {
  port = data.port;
}

export async function resolve(specifier, context, nextResolve) {
  const result = await nextResolve(specifier, context);
  port.postMessage(result.url);
  return result;
}
