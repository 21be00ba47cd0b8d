// The close's copy of a closing segment's row columns (sidecar-frozen.ts freezeSidecar):
// a column of one value is kept as that value, the others copied into memory V8 maps from
// the system.
import { isConstant } from './column-codec.js';

export const align8 = (n: number) => Math.ceil(n / 8) * 8;

/**
 * The one value column `src` holds at the consecutive slots from `slots[0]` (compared as
 * bytes), if it is one a sidecar stores as such (NaN, or finite and not -0).
 */
export function constantAt(src: Float64Array | Int32Array | Uint8Array, slots: ArrayLike<number>): number | undefined {
  if (slots.length === 0) return undefined;
  const view = src.subarray(slots[0], slots[0] + slots.length);
  const v = view[0];
  return isConstant(view) && (Number.isNaN(v) || (Number.isFinite(v) && !Object.is(v, -0))) ? v : undefined;
}

/** The WebAssembly global (this project's TypeScript libraries do not declare it). */
const WASM = (globalThis as unknown as { WebAssembly: { Memory: new (d: { initial: number }) => { buffer: ArrayBuffer } } }).WebAssembly;

/**
 * `bytes` of memory that V8 maps from the system and unmaps when it is collected, not
 * malloc's (docs/architecture.md, "Memory": a freed block of 128 KiB or more raises
 * glibc's thresholds for good): a WebAssembly.Memory's buffer, whose typed arrays are
 * plain ones (a resizable buffer's are a kind of their own, which the encoder's loops
 * would then see beside the plain ones). A plain ArrayBuffer where that is refused.
 */
export function systemMemory(bytes: number): ArrayBuffer {
  try {
    return new WASM.Memory({ initial: Math.max(1, Math.ceil(bytes / 65536)) }).buffer;
  } catch {
    return new ArrayBuffer(bytes);
  }
}

/** A copy of column `src` at `slots` (a block copy when `run`: they are consecutive), in `room` from byte `at`. */
export function copyAt<T extends Float64Array | Int32Array | Uint8Array>(
  src: T,
  slots: ArrayLike<number>,
  run: boolean,
  room: ArrayBuffer,
  at: number,
): T {
  const col = new (src.constructor as new (b: ArrayBuffer, at: number, n: number) => T)(room, at, slots.length);
  if (run && slots.length > 0) col.set(src.subarray(slots[0], slots[0] + slots.length));
  else for (let k = 0; k < slots.length; k++) col[k] = src[slots[k]];
  return col;
}
