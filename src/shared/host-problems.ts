/**
 * When something goes wrong in the host anyway (issue 23): an uncaught error it went on after,
 * or a start after a run that ended in one. The window says so and offers the crash log.
 */
import { z } from 'zod';

export const HostProblem = z.object({
  /**
   * `error`: an uncaught error the host logged and went on after; `restarted`: this host started
   * after a run of it that ended in one (a crash log says how).
   */
  kind: z.enum(['error', 'restarted']),
  at: z.number(),
  /** One line: what failed. */
  message: z.string(),
  /** The crash log's file name in `<data folder>/logs`, for `crashes:read`. */
  report: z.string(),
});
export type HostProblemT = z.output<typeof HostProblem>;

export const CrashReportRequest = z.object({ report: z.string().regex(/^crash-[\w.-]+\.log$/) }).strict();
export const CrashReport = z.object({ report: z.string(), text: z.string() });
