// Context for row 1 (not a target): the smallest Express 5 app that answers
// GET /documents/:id with the same JSON bytes (read from the file named in argv[2]).
// It shows how much of Countersign's GET cost is Express itself.
import express from 'express';
import { readFileSync } from 'node:fs';

const body = readFileSync(process.argv[2]);
const app = express();
app.disable('x-powered-by');
app.disable('etag');
app.get('/documents/:id', (_req, res) => {
  res.type('application/json').send(body);
});
const server = app.listen(0, '127.0.0.1', () => {
  process.stdout.write(JSON.stringify({ ready: true, url: `http://127.0.0.1:${server.address().port}` }) + '\n');
});
server.keepAliveTimeout = 60_000;
process.on('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
});
