import type { DebugInfoT } from '../../shared/contract';

/**
 * This process's memory and its active libuv resources by type. A timer, socket or pipe
 * that leaks shows here as a count that keeps growing across a soak.
 */
export function processFigures(clients: number): DebugInfoT {
  // Where the collector is exposed (the soak runs the host with --expose-gc), memory is
  // measured after a full collection: garbage not yet collected is not a leak.
  (globalThis as { gc?: () => void }).gc?.();
  const memory = process.memoryUsage();
  const resources: Record<string, number> = {};
  for (const type of process.getActiveResourcesInfo()) resources[type] = (resources[type] ?? 0) + 1;
  return { rss: memory.rss, heapUsed: memory.heapUsed, resources, clients };
}
