// Webhook secret generation, kept apart from signing.ts so that module stays pure.
// Guards against guessable secrets: 32 bytes from the operating system's CSPRNG.
import { randomBytes } from 'node:crypto';

/** `whsec_` + base64 of 32 random bytes (docs/api.md section 6). */
export function generateSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}
