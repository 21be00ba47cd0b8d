// A server-sent events parser (the WHATWG event-stream format), fed text chunks as
// they arrive. The console reads its stream with fetch rather than EventSource so that
// the token travels in a header, never in a URL.

export interface SseMessage {
  event: string;
  data: string;
  id?: string;
}

export interface SseParser {
  push(chunk: string): void;
}

export interface SseHandlers {
  onMessage(msg: SseMessage): void;
  /** A `retry:` field: the server's suggested reconnection delay in ms. */
  onRetry?(ms: number): void;
  /** Any line at all (comments included): the link is alive. */
  onActivity?(): void;
}

export function createSseParser(h: SseHandlers): SseParser {
  let buffer = '';
  let event = '';
  let data: string[] = [];
  let id: string | undefined;
  let sawCr = false;

  const line = (text: string) => {
    h.onActivity?.();
    if (text === '') {
      if (data.length > 0) h.onMessage({ event: event || 'message', data: data.join('\n'), ...(id !== undefined ? { id } : {}) });
      event = '';
      data = [];
      return;
    }
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'event':
        event = value;
        break;
      case 'data':
        data.push(value);
        break;
      case 'id':
        if (!value.includes('\0')) id = value;
        break;
      case 'retry':
        if (/^\d+$/.test(value)) h.onRetry?.(Number(value));
        break;
    }
  };

  return {
    push(chunk: string) {
      for (const ch of chunk) {
        if (ch === '\n') {
          if (sawCr) {
            sawCr = false; // the \n of a \r\n pair
            continue;
          }
          line(buffer);
          buffer = '';
        } else if (ch === '\r') {
          sawCr = true;
          line(buffer);
          buffer = '';
        } else {
          sawCr = false;
          buffer += ch;
        }
      }
    },
  };
}
