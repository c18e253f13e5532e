import type { SearchProgressT } from '../../shared/contract';
import type { Clock } from '../util/clock';
import type { Logger } from '../util/log';

/** How often windows hear of the search backfill's progress, at most. */
const PUSH_EVERY_MS = 250;

/**
 * The progress of indexing older transcripts for search, told to windows at most every
 * 250 ms (and when it is done) and to the log every tenth of the way.
 */
export function searchProgressReporter(o: { clock: Clock; log: Logger; push(progress: SearchProgressT): void }): (progress: SearchProgressT) => void {
  let lastPushed = -Infinity;
  let lastLoggedTenth = 0;
  return (progress) => {
    const tenth = progress.total === 0 ? 10 : Math.floor((progress.indexed / progress.total) * 10);
    if (progress.done) o.log.info('older transcripts indexed for search', { events: progress.total });
    else if (tenth > lastLoggedTenth) o.log.info('indexing older transcripts for search', progress);
    lastLoggedTenth = Math.max(lastLoggedTenth, tenth);
    const now = o.clock.now();
    if (!progress.done && now - lastPushed < PUSH_EVERY_MS) return;
    lastPushed = now;
    o.push(progress);
  };
}
