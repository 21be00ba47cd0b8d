// Argument checks behind the bridge: a suggested file name cannot choose a folder.
import { describe, expect, it } from 'vitest';
import { checkExportContents, checkImportSize, checkNoArgs, sanitizeFileName } from '../../../src-main/desktop/ipc-validate.js';

describe('sanitizeFileName', () => {
  it('keeps ordinary names', () => {
    expect(sanitizeFileName('deliveries-2025-01-01.json')).toBe('deliveries-2025-01-01.json');
    expect(sanitizeFileName('Receiver export (3).json')).toBe('Receiver export (3).json');
  });
  it('drops folders and traversal', () => {
    expect(sanitizeFileName('../../.bashrc')).toBe('bashrc');
    expect(sanitizeFileName('/etc/passwd')).toBe('passwd');
    expect(sanitizeFileName('..\\..\\Windows\\win.ini')).toBe('win.ini');
    expect(sanitizeFileName('a/b/')).toBe('countersign-export.json');
  });
  it('removes special characters, device names and leading dots; bounds the length', () => {
    expect(sanitizeFileName('a<b>c:d"e|f?g*h\u0000.json')).toBe('abcdefgh.json');
    expect(sanitizeFileName('CON.json')).toBe('countersign-export.json');
    expect(sanitizeFileName('...')).toBe('countersign-export.json');
    expect(sanitizeFileName('.hidden')).toBe('hidden');
    expect(sanitizeFileName('x'.repeat(500)).length).toBe(120);
    expect(sanitizeFileName(undefined)).toBe('countersign-export.json');
    expect(sanitizeFileName({ toString: () => '/etc/x' })).toBe('countersign-export.json');
  });
});

describe('other checks', () => {
  it('accepts text contents and refuses anything else or too much', () => {
    expect(checkExportContents('{}')).toBe('{}');
    expect(() => checkExportContents(Buffer.from('x'))).toThrow(/text/);
    expect(() => checkExportContents('x'.repeat(50 * 1024 * 1024 + 1))).toThrow(/over/);
  });
  it('refuses an import over the size limit', () => {
    expect(() => checkImportSize(1024)).not.toThrow();
    expect(() => checkImportSize(21 * 1024 * 1024)).toThrow(/MiB/);
  });
  it('refuses extra arguments', () => {
    expect(() => checkNoArgs([])).not.toThrow();
    expect(() => checkNoArgs(['x'])).toThrow(/no arguments/);
  });
});
