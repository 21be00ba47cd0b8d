// Desktop features used only where the desktop shell offers them (window.countersign,
// see src-shared/ipc-contract.ts); in a plain browser the console falls back to
// web APIs, so everything works in both.

/** Copies text to the clipboard; resolves false when neither way worked. */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // permission refused or not focused: try the older way
  }
  try {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.className = 'offscreen';
    document.body.appendChild(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    return ok;
  } catch {
    return false;
  }
}

export function desktopBridge() {
  return window.countersign;
}
