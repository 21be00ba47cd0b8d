// "Copy as curl": a POSIX shell command that sends the captured request again,
// byte-exact. Guards against shell injection from captured data (every header, URL and
// body is single-quoted with ' escaped; a body that is not plain UTF-8 text, or holds
// NUL bytes, travels as base64 and is decoded by `base64 -d`).
import type { Capture } from './types.js';
import { HOP_HEADERS } from './replay.js';

export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

function isPlainText(body: Buffer): boolean {
  if (body.includes(0)) return false;
  return Buffer.from(body.toString('utf8'), 'utf8').equals(body);
}

export function curlCommand(capture: Capture, url: string): string {
  const parts = ['curl', '-sS', '-X', shellQuote(capture.method), shellQuote(url)];
  for (const [name, value] of capture.headers) {
    if (HOP_HEADERS.has(name.toLowerCase())) continue;
    parts.push('-H', shellQuote(`${name}: ${value}`));
  }
  const hasBody = capture.body.length > 0;
  if (hasBody) parts.push('--data-binary', '@-');
  const cmd = parts.join(' ');
  if (!hasBody) return cmd + '\n';
  if (isPlainText(capture.body)) return `printf '%s' ${shellQuote(capture.body.toString('utf8'))} | ${cmd}\n`;
  return `printf '%s' ${shellQuote(capture.body.toString('base64'))} | base64 -d | ${cmd}\n`;
}
