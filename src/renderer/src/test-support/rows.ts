import type { SessionEventT } from '../../../shared/contract';
import { RowGrouper, type Row } from '../store/slices/transcript/rows';

/** Every row of `events`, grouped from scratch: what the store's incremental grouping must equal. */
export function buildRows(events: readonly SessionEventT[]): Row[] {
  const list = new RowGrouper().update(events);
  return Array.from({ length: list.count }, (_, i) => list.at(i) as Row);
}
