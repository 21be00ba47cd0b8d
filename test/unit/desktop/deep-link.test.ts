// Document links: the countersign:// protocol handler's path check and the console
// document URL, with the odd inputs the OS or another program could pass.
import { describe, expect, it } from 'vitest';
import {
  documentPageUrl,
  findDocumentLink,
  parseConsoleDocumentUrl,
  parseDocumentLink,
  parseProtocolLink,
} from '../../../src-main/desktop/deep-link.js';

const ORIGIN = 'http://127.0.0.1:4010';
const ID = 'doc_3hK9aZ0qLmN7pQ2rS5tU8v';

describe('parseProtocolLink', () => {
  it('accepts countersign://documents?d=<id> in its usual forms', () => {
    expect(parseProtocolLink(`countersign://documents?d=${ID}`)).toBe(ID);
    expect(parseProtocolLink(`countersign://documents/?d=${ID}`)).toBe(ID);
    expect(parseProtocolLink(`countersign:documents?d=${ID}`)).toBe(ID);
    expect(parseProtocolLink(`countersign://documents?d=${encodeURIComponent(ID)}`)).toBe(ID);
  });

  it('refuses other paths and hosts, traversal included', () => {
    for (const bad of [
      `countersign://settings?d=${ID}`,
      `countersign://documents/x?d=${ID}`,
      `countersign://documents/../settings?d=${ID}`,
      `countersign://documents/%2e%2e/settings?d=${ID}`,
      `countersign://evil.example/documents?d=${ID}`,
      `countersign://documents:4010?d=${ID}`,
      `countersign://user@documents?d=${ID}`,
      `countersign:///documents?d=${ID}`,
      `countersign://DOCUMENTS?d=${ID}`,
    ]) {
      expect(parseProtocolLink(bad), bad).toBeNull();
    }
  });

  it('refuses a missing, repeated, extra or malformed d', () => {
    for (const bad of [
      'countersign://documents',
      'countersign://documents?d=',
      `countersign://documents?d=${ID}&d=doc_other`,
      `countersign://documents?d=${ID}&x=1`,
      `countersign://documents?d=${ID}#frag`,
      'countersign://documents?d=../../etc/passwd',
      'countersign://documents?d=doc_..%2F..%2Fetc',
      'countersign://documents?d=doc_a%2Fb',
      'countersign://documents?d=doc_<script>',
      'countersign://documents?d=wh_abc',
      `countersign://documents?d=doc_${'a'.repeat(65)}`,
      'countersign://documents?d=doc_abc%00',
    ]) {
      expect(parseProtocolLink(bad), bad).toBeNull();
    }
  });

  it('refuses other schemes, control characters, huge input and non-strings', () => {
    for (const bad of [
      `https://documents?d=${ID}`,
      `countersigns://documents?d=${ID}`,
      `countersign://documents?d=${ID}\n`,
      ` countersign://documents?d=${ID}`,
      `countersign:\\\\documents?d=${ID}`,
      `countersign://documents?d=${ID}&pad=${'x'.repeat(3000)}`,
      undefined,
      42,
      '',
    ]) {
      expect(parseProtocolLink(bad), String(bad)).toBeNull();
    }
  });
});

describe('parseConsoleDocumentUrl', () => {
  it('accepts {app_url}/documents?d=<id> on the console origin', () => {
    expect(parseConsoleDocumentUrl(`${ORIGIN}/app/documents?d=${ID}`, ORIGIN)).toBe(ID);
    expect(parseConsoleDocumentUrl(`${ORIGIN}/app/documents/?d=${ID}`, ORIGIN)).toBe(ID);
  });
  it('refuses another origin, another path or a bad id', () => {
    for (const bad of [
      `http://127.0.0.1:9999/app/documents?d=${ID}`,
      `http://localhost:4010/app/documents?d=${ID}`,
      `https://example.com/app/documents?d=${ID}`,
      `${ORIGIN}/app/settings?d=${ID}`,
      `${ORIGIN}/documents/${ID}`,
      `${ORIGIN}/app/documents?d=x`,
      `${ORIGIN}/app/documents/../settings?d=${ID}`,
    ]) {
      expect(parseConsoleDocumentUrl(bad, ORIGIN), bad).toBeNull();
    }
  });
});

describe('findDocumentLink (argv of a launch)', () => {
  it('finds the link among Electron and Chromium arguments', () => {
    const argv = ['.', '--no-sandbox', '--remote-debugging-port=0', `countersign://documents?d=${ID}`];
    expect(findDocumentLink(argv, ORIGIN)).toBe(ID);
    expect(parseDocumentLink(`${ORIGIN}/app/documents?d=${ID}`, ORIGIN)).toBe(ID);
  });
  it('finds nothing when there is no valid link', () => {
    expect(findDocumentLink(['.', '--port', '0', 'countersign://documents?d=nope'], ORIGIN)).toBeNull();
    expect(findDocumentLink([], ORIGIN)).toBeNull();
  });
  it('does not read a --flag=countersign://… value as a link', () => {
    expect(findDocumentLink([`--x=countersign://documents?d=${ID}`], ORIGIN)).toBeNull();
  });
});

describe('documentPageUrl', () => {
  it('builds the console URL for the document with the token in the fragment', () => {
    expect(documentPageUrl(`${ORIGIN}/app`, ID, 'tok_en-1')).toBe(`${ORIGIN}/app/documents?d=${ID}#token=tok_en-1`);
  });
  it('refuses to build one for something that is not a document id', () => {
    expect(() => documentPageUrl(`${ORIGIN}/app`, '../x', 't')).toThrow();
  });
});
