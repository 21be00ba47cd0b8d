// Loads a Node-side test helper (test/helpers/*.ts: a real backend, a scripted HTTP
// server) from a jsdom test. Dynamic, on purpose: those files are Node code of the node
// TypeScript project, and a static import would pull them into the web project
// (tsconfig.web.json), which holds only browser code and has no Node types.
export async function loadNodeHelper<T>(file: string): Promise<T> {
  const path = `../helpers/${file}`;
  return (await import(/* @vite-ignore */ path)) as T;
}
