// In-process change notifications: the domain and the delivery engine announce what
// changed; the console's live stream (server-sent events) and the receiver listen.
// Payloads are small references (ids and kinds); listeners fetch details over the API.
import { EventEmitter } from 'node:events';

export type Change =
  | { kind: 'document'; company_id: string; id: string }
  | { kind: 'subscription'; company_id: string; id: string; deleted?: boolean }
  | { kind: 'event'; company_id: string; id: string; type: string; document_id: string | null }
  | { kind: 'delivery'; company_id: string; id: string; subscription_id: string; status: string; document_id: string | null }
  | { kind: 'notification'; company_id: string; id: string; document_id: string }
  | { kind: 'api_key'; company_id: string; id: string }
  | { kind: 'capture'; inbox_id: string; id: string }
  | { kind: 'inbox'; id: string }
  | { kind: 'tunnel'; state: string };

export class ChangeBus {
  private readonly emitter = new EventEmitter();
  constructor() {
    // Many console tabs may listen at once.
    this.emitter.setMaxListeners(0);
  }
  emit(change: Change): void {
    this.emitter.emit('change', change);
  }
  subscribe(listener: (change: Change) => void): () => void {
    this.emitter.on('change', listener);
    return () => this.emitter.off('change', listener);
  }
}
