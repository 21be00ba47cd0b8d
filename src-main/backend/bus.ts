// In-process change notifications: the domain and the delivery engine announce what
// changed; the console's live stream (server-sent events) and the receiver listen.
// Payloads are small references (ids and kinds); listeners fetch details over the API.
import { EventEmitter } from 'node:events';
import type { Change } from '@shared/api-types.js';

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
