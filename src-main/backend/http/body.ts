// The one reader of JSON request bodies (docs/api.md sections 3 and 5), read by hand so
// that every failure gets its exact code. Guards against memory exhaustion and
// misread input:
// - 413 past the limit (1 MiB unless a route says otherwise): refused on the declared
//   Content-Length before reading, and again while reading, without keeping the rest;
// - 415 for a compressed body (any Content-Encoding but identity: nothing here inflates,
//   so compressed bytes are never parsed as if they were JSON) and for a body whose
//   Content-Type is not JSON (application/json or application/*+json);
// - 400 for bytes that are not JSON, or JSON that is not an object.
// An empty body reads as {} (POST /remind and friends take none). Methods that carry no
// body (GET, HEAD, DELETE, OPTIONS) are not read at all.
import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';
import { ApiError } from '../errors.js';

export const MAX_BODY_BYTES = 1024 * 1024;

const NO_BODY = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS']);

const tooLarge = (limit: number) => new ApiError('payload_too_large', `The request body is larger than ${limit} bytes.`);

function isJsonType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const mime = contentType.split(';')[0].trim().toLowerCase();
  return mime === 'application/json' || (mime.startsWith('application/') && mime.endsWith('+json'));
}

function readRaw(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.resume(); // drain what is left so the answer can be read
        reject(tooLarge(limit));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function checkEncoding(req: IncomingMessage): void {
  const encoding = req.headers['content-encoding']?.trim().toLowerCase();
  if (encoding && encoding !== 'identity') {
    throw new ApiError(
      'unsupported_media_type',
      `Unsupported content encoding "${encoding.slice(0, 40)}": send the body uncompressed, without Content-Encoding.`,
    );
  }
}

/** Reads the body into `req.body` as a JSON object, or answers with the contract's 413/415/400. */
export function jsonBody(limit = MAX_BODY_BYTES): RequestHandler {
  return async (req, _res, next) => {
    if (NO_BODY.has(req.method)) {
      req.body = undefined;
      return next();
    }
    if (Number(req.headers['content-length'] ?? 0) > limit) throw tooLarge(limit);
    const raw = await readRaw(req, limit);
    if (raw.length === 0) {
      req.body = {};
      return next();
    }
    checkEncoding(req);
    if (!isJsonType(req.headers['content-type'])) {
      throw new ApiError('unsupported_media_type', 'Send the body as JSON with "Content-Type: application/json".');
    }
    let value: unknown;
    try {
      value = JSON.parse(raw.toString('utf8'));
    } catch {
      throw new ApiError('invalid_json', 'The request body is not valid JSON.');
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new ApiError('invalid_json', 'The request body must be a JSON object.');
    }
    req.body = value;
    next();
  };
}
