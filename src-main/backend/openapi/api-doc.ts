// docs/api.md's "Delivery semantics" table, rendered from the OpenAPI document's
// x-delivery-semantics between two markers (npm run openapi writes it; a test fails
// when the file and the document disagree).
import { DELIVERY_SEMANTICS, renderSemantics, SEMANTICS_END, SEMANTICS_START } from './delivery-semantics.js';

/** `markdown` with the generated table between the markers (which must be there, in order). */
export function withSemantics(markdown: string): string {
  const start = markdown.indexOf(SEMANTICS_START);
  const end = markdown.indexOf(SEMANTICS_END);
  if (start === -1 || end < start) throw new Error('docs/api.md lacks the delivery-semantics markers');
  return `${markdown.slice(0, start + SEMANTICS_START.length)}\n\n${renderSemantics(DELIVERY_SEMANTICS)}\n\n${markdown.slice(end)}`;
}
