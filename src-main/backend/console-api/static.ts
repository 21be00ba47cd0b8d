// Serves the built console page under /app. What it guards against: script injection
// (a strict Content-Security-Policy: only this origin's own files run, no inline
// script or style, no plugins, no framing, no form posts), MIME sniffing, leaking the
// page address through Referer, and a stale page after an upgrade (index.html is never
// cached; only content-hashed assets are).
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import express, { type RequestHandler, type Response, Router } from 'express';

export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'none'",
].join('; ');

export function setPageHeaders(res: Response): void {
  res.setHeader('Content-Security-Policy', CONSOLE_CSP);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
}

const NOT_BUILT = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Countersign console not built</title></head>
<body><h1>The console is not built</h1>
<p>The service API is running, but the console page has not been built yet.
Run <code>npm run build</code> and reload this page.</p></body></html>`;

/** Paths that name a file (they have an extension) get a 404 when missing, never the page. */
function looksLikeFile(path: string): boolean {
  return extname(path) !== '';
}

export function consoleStatic(rendererDir: string | undefined): Router {
  const router = Router();
  router.use((_req, res, next) => {
    setPageHeaders(res);
    next();
  });

  const sendIndex: RequestHandler = async (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    res.setHeader('Cache-Control', 'no-cache');
    const indexPath = rendererDir ? join(rendererDir, 'index.html') : undefined;
    if (!indexPath || !existsSync(indexPath)) {
      res.status(503).type('html').send(NOT_BUILT);
      return;
    }
    try {
      res.type('html').send(await readFile(indexPath));
    } catch (err) {
      next(err);
    }
  };

  if (rendererDir) {
    router.use(
      express.static(rendererDir, {
        index: false,
        redirect: false,
        dotfiles: 'ignore',
        fallthrough: true,
        setHeaders(res, path) {
          // Vite names everything under assets/ by content hash: safe to keep forever.
          const hashed = /[\\/]assets[\\/]/.test(path);
          res.setHeader('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
        },
      }),
    );
  }

  router.use((req, res, next) => {
    if (looksLikeFile(req.path)) {
      res.status(404).type('text').setHeader('Cache-Control', 'no-cache');
      res.send('Not found.');
      return;
    }
    // Every other path under /app is a screen of the single-page console (deep links
    // such as /app/documents?d=doc_… or /app/settings/webhooks, reloads included).
    return sendIndex(req, res, next);
  });
  return router;
}
