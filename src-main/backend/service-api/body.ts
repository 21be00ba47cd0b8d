// Request bodies, read by hand so that every failure gets its exact contract code:
// 413 over 1 MiB (checked on Content-Length before reading, and again while reading),
// 415 for a body that is not application/json, 400 for bytes that are not a JSON
// object. An absent body reads as {} (POST /remind and friends take none).
import type { Request, Response, NextFunction } from 'express';
import { ApiError } from '../errors.js';

export const MAX_BODY_BYTES = 1024 * 1024;

const tooLarge = () => new ApiError('payload_too_large', `The request body is larger than ${MAX_BODY_BYTES} bytes.`);

function isJsonType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const mime = contentType.split(';')[0].trim().toLowerCase();
  return mime === 'application/json' || (mime.startsWith('application/') && mime.endsWith('+json'));
}

function readRaw(req: Request): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        req.removeAllListeners('data');
        req.resume(); // drain what is left so the answer can be read
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export async function jsonBody(req: Request, _res: Response, next: NextFunction): Promise<void> {
  if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'DELETE' || req.method === 'OPTIONS') {
    req.body = undefined;
    return next();
  }
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  const raw = await readRaw(req);
  if (raw.length === 0) {
    req.body = {};
    return next();
  }
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
}
