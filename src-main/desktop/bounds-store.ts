// Remembers the window's size and position in a small JSON file in the user-data
// folder. Guards against a window that opens where nobody can see or reach it (a
// display unplugged since, a hand-edited or half-written file): anything not fully
// valid, or whose title bar would not be on a current display, falls back to defaults.
// No Electron import: the displays' work areas are passed in.
import { readFile, rename, writeFile } from 'node:fs/promises';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface WindowBounds {
  /** Absent: Electron centres the window. */
  x?: number;
  y?: number;
  width: number;
  height: number;
  maximized: boolean;
}

export const DEFAULT_BOUNDS: Readonly<WindowBounds> = Object.freeze({ width: 1280, height: 820, maximized: false });

const MIN_SIZE = { width: 400, height: 300 };
const MAX_COORD = 100_000;
/** How much of the title bar must be on a display for the window to be reachable. */
const VISIBLE_TITLE = { width: 100, height: 30 };

function isInt(v: unknown, min: number, max: number): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
}

function overlap(a: Rect, b: Rect): Rect {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  return { x, y, width: Math.min(a.x + a.width, b.x + b.width) - x, height: Math.min(a.y + a.height, b.y + b.height) - y };
}

/** Saved bounds (whatever was in the file) checked against the current displays' work areas. */
export function restoreBounds(saved: unknown, workAreas: readonly Rect[]): WindowBounds {
  const defaults = { ...DEFAULT_BOUNDS };
  if (typeof saved !== 'object' || saved === null || Array.isArray(saved)) return defaults;
  const s = saved as Record<string, unknown>;
  if (!isInt(s.width, MIN_SIZE.width, MAX_COORD) || !isInt(s.height, MIN_SIZE.height, MAX_COORD)) return defaults;
  if (!isInt(s.x, -MAX_COORD, MAX_COORD) || !isInt(s.y, -MAX_COORD, MAX_COORD)) return defaults;
  const maximized = s.maximized === true;
  const titleBar: Rect = { x: s.x, y: s.y, width: s.width, height: VISIBLE_TITLE.height };
  const display = workAreas.find((area) => {
    const o = overlap(titleBar, area);
    return o.width >= VISIBLE_TITLE.width && o.height >= VISIBLE_TITLE.height;
  });
  if (!display) return defaults;
  // A window larger than the display it is on is shrunk to fit it.
  return {
    x: s.x,
    y: s.y,
    width: Math.min(s.width, display.width),
    height: Math.min(s.height, display.height),
    maximized,
  };
}

/** Reads the bounds file; a missing, unreadable or corrupt file gives the defaults. */
export async function readBounds(file: string, workAreas: readonly Rect[]): Promise<WindowBounds> {
  let saved: unknown;
  try {
    saved = JSON.parse(await readFile(file, 'utf8'));
  } catch {
    return { ...DEFAULT_BOUNDS };
  }
  return restoreBounds(saved, workAreas);
}

/** Writes the bounds atomically (temp file, then rename), so a crash never leaves half a file. */
export async function writeBounds(file: string, bounds: WindowBounds): Promise<void> {
  const data: WindowBounds = {
    x: Math.round(bounds.x ?? 0),
    y: Math.round(bounds.y ?? 0),
    width: Math.round(bounds.width),
    height: Math.round(bounds.height),
    maximized: bounds.maximized,
  };
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, JSON.stringify(data) + '\n', { mode: 0o600 });
  await rename(tmp, file);
}
