// The GET reference: a bare node:http server on 127.0.0.1 answering every request with
// the same JSON bytes Countersign returns for GET /documents/:id (read from the file
// named in argv[2]), with the same content type. No routing, no auth, no storage.
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';

const body = readFileSync(process.argv[2]);
const server = createServer((req, res) => {
  req.resume();
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  res.end(body);
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(JSON.stringify({ ready: true, url: `http://127.0.0.1:${server.address().port}` }) + '\n');
});
process.on('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
});
