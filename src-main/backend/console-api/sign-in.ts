// Signing a browser in: POST /console/api/sign-in, behind the guard (so it needs the
// token itself, in a header: the page sends the one from console_url's fragment, or the
// one a person pasted), answers 204 and sets the session cookie (guard.ts says what it
// guards against). POST /console/api/sign-out removes it.
import { Router } from 'express';
import { clearSessionCookie, setSessionCookie } from './guard.js';

export function signInRoutes(token: string): Router {
  const r = Router();
  r.post('/sign-in', (req, res) => {
    setSessionCookie(res, token, req.socket.localPort);
    res.status(204).end();
  });
  r.post('/sign-out', (req, res) => {
    clearSessionCookie(res, req.socket.localPort);
    res.status(204).end();
  });
  return r;
}
