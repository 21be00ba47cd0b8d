// Paging by `starting_after` + `limit` (docs/api.md section 3): the query's schema and
// the one slicing of a list into a page. Pure (no Express): the domain's lists can use
// it as well as the routes.
import { z } from 'zod';
import { validationError } from '../errors.js';
import type { Page } from '@shared/api-types.js';

export interface PageRequest {
  limit: number;
  starting_after?: string;
}

/** `limit` 1–100 (default 50) and `starting_after`; extend it with a list's own filters. */
export const pageQuery = z.object({
  limit: z.coerce
    .number({ error: 'must be a whole number from 1 to 100' })
    .int('must be a whole number from 1 to 100')
    .min(1, 'must be at least 1')
    .max(100, 'must be at most 100')
    .default(50),
  starting_after: z.string({ error: 'must be a string' }).optional(),
});

/**
 * The page of `items` (already in the list's order) that follows the item whose id is
 * `page.starting_after`. An id that is not in the list is a 422 on `starting_after`,
 * worded "is not <what>" (e.g. "a notification of this company").
 */
export function pageAfter<T>(items: readonly T[], idOf: (item: T) => string, page: PageRequest, what: string): Page<T> {
  let start = 0;
  if (page.starting_after) {
    start = items.findIndex((item) => idOf(item) === page.starting_after) + 1;
    if (start === 0) throw validationError([{ field: 'starting_after', message: `is not ${what}` }]);
  }
  return { data: items.slice(start, start + page.limit), has_more: start + page.limit < items.length };
}
