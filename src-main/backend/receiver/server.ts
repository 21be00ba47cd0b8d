// The receiver's HTTP listener (bound by the composition root). Guards against slow and
// greedy senders at the socket level: headers must arrive within headersTimeoutMs and
// the whole request within requestTimeoutMs (a body that trickles in a byte at a time
// cannot hold memory or a slot for longer: 408), headers are at most 16 KiB (431), idle
// keep-alive connections close after 5 s, and at most maxConnections connections are
// open at once. What Node's parser refuses is answered in the one error shape too.
// Answers held back on purpose (delay, hang) come after the request was received, so
// these timeouts never cut them.
import { createServer, STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { expressMessageClasses } from '../http/express-messages.js';
import { presetExpressFields } from '../http/express-shapes.js';
import { settleHttpMessageShapes } from '../http/message-shapes.js';
import type { Receiver } from './receiver.js';

/** Node's own default, said here so that it is a decision: a request's headers, all together. */
const MAX_HEADER_BYTES = 16 * 1024;

const CLIENT_ERRORS: Record<string, { status: number; code: string; message: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, code: 'request_timeout', message: 'The request took too long to arrive.' },
  HPE_HEADER_OVERFLOW: { status: 431, code: 'headers_too_large', message: `The request's headers are over ${MAX_HEADER_BYTES} bytes.` },
};
const MALFORMED = { status: 400, code: 'invalid_request', message: 'The request is not well-formed HTTP.' };

/** A refusal before any handler ran (the parser's, or a timeout): one error shape, then the connection closes. */
function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  // An answer already under way (e.g. a 503 while the sender still trickles its body) cannot get a second one.
  const underway = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
  if (!socket.writable || underway || err.code === 'ECONNRESET') return void socket.destroy();
  const e = CLIENT_ERRORS[err.code ?? ''] ?? MALFORMED;
  const body = JSON.stringify({ error: { code: e.code, message: e.message } });
  socket.end(
    `HTTP/1.1 ${e.status} ${STATUS_CODES[e.status]}\r\ncontent-type: application/json; charset=utf-8\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

export function createReceiverServer(receiver: Pick<Receiver, 'app' | 'limits'>): Server {
  const l = receiver.limits;
  // As on the API listener: the app's prototypes from the start (http/express-messages.ts), a settled layout.
  const classes = expressMessageClasses(receiver.app);
  settleHttpMessageShapes(classes);
  const server = createServer(
    {
      ...classes,
      maxHeaderSize: MAX_HEADER_BYTES,
      // Node refuses a header timeout longer than the request timeout.
      headersTimeout: Math.min(l.headersTimeoutMs, l.requestTimeoutMs),
      requestTimeout: l.requestTimeoutMs,
      keepAliveTimeout: 5000,
      // How often the timeouts above are checked (Node's default, 30 s, would let a slow sender overstay by that much).
      connectionsCheckingInterval: Math.min(1000, l.requestTimeoutMs),
    },
    (req, res) => {
      // Express's additions get shared maps, as on the API listener (http/express-shapes.ts): node:http's
      // code is one for the whole process, and inbox traffic would otherwise slow the service API too.
      presetExpressFields(req, res);
      receiver.app(req, res);
    },
  );
  server.maxConnections = l.maxConnections;
  server.on('clientError', answerClientError);
  return server;
}
