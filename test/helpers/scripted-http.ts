// A loopback HTTP server whose answers a test scripts by hand (status, headers, a
// stream that drops or goes silent): for the console's live-stream tests, which run
// in jsdom and load this file dynamically (it is Node code, kept out of the web
// TypeScript project).
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedResponse {
  writeHead(status: number, headers?: Record<string, string>): void;
  write(chunk: string): void;
  end(chunk?: string): void;
}

export interface ScriptedServer {
  origin: string;
  close(): Promise<void>;
}

/** `handle(n, res, headers)` is called for the n-th request (1-based). */
export async function startScriptedServer(
  handle: (n: number, res: ScriptedResponse, headers: Record<string, string | string[] | undefined>) => void,
): Promise<ScriptedServer> {
  let n = 0;
  const open = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    open.add(res);
    res.on('close', () => open.delete(res));
    handle(++n, res, req.headers);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((r) => {
        for (const res of open) res.destroy();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
