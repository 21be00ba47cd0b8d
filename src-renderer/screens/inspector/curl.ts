// "Copy as curl" for a delivery attempt, built here from the logged request (a capture's
// command comes from the receiver's route). Guards against shell injection from logged
// data: every header, the URL and the body are single-quoted with ' escaped, and the
// body goes through printf '%s' on standard input, never as an argument curl parses.
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

const SKIP = new Set(['host', 'content-length', 'connection', 'transfer-encoding']);

export function curlForRequest(req: { method: string; url: string; headers: Record<string, string>; body: string }): string {
  const parts = ['curl', '-sS', '-X', shellQuote(req.method), shellQuote(req.url)];
  for (const [name, value] of Object.entries(req.headers)) {
    if (SKIP.has(name.toLowerCase())) continue;
    parts.push('-H', shellQuote(`${name}: ${value}`));
  }
  if (req.body === '') return parts.join(' ') + '\n';
  parts.push('--data-binary', '@-');
  return `printf '%s' ${shellQuote(req.body)} | ${parts.join(' ')}\n`;
}
