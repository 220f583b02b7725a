// The paged envelope of the per-carrier list endpoints.

import { PAGE_SIZE } from './requests.js';
import type { LocationPage, LocationRecord } from './responses.js';

/** One page of `items` (page numbers from 1); a page past the end is empty, with the true totals. */
export function pageOf<T>(items: readonly T[], page: number, toRecord: (item: T) => LocationRecord): LocationPage {
  const start = (page - 1) * PAGE_SIZE;
  return {
    success: true,
    locations: items.slice(start, start + PAGE_SIZE).map(toRecord),
    total: items.length,
    currentPage: page,
    totalPages: Math.ceil(items.length / PAGE_SIZE),
  };
}
