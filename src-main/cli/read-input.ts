// Reading what a command is given as a file argument: a path, or "-" for stdin. Bytes
// are kept as they are (a webhook body must be verified exactly as received).
import { readFile } from 'node:fs/promises';
import { CliError, EXIT } from './exit-codes.js';

export async function readInput(path: string, stdin: NodeJS.ReadableStream = process.stdin): Promise<Buffer> {
  if (path === '-') {
    const chunks: Buffer[] = [];
    for await (const chunk of stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
    return Buffer.concat(chunks);
  }
  try {
    return await readFile(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new CliError(
      `cannot read ${path}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : (code ?? 'error')}`,
      EXIT.usage,
      'usage',
    );
  }
}
