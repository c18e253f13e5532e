/**
 * Settings → Storage: what the database holds, its backups, clean-up and compaction (issue 23).
 */
import { z } from 'zod';

export const LargeSessionView = z.object({
  id: z.uuid(),
  title: z.string(),
  events: z.number().int().nonnegative(),
  /** Bytes of its stored transcript payloads. */
  payloadBytes: z.number().nonnegative(),
  archived: z.boolean(),
  lastActivityAt: z.number(),
});

export const StorageReportView = z.object({
  /** The database file's pages. */
  databaseBytes: z.number().nonnegative(),
  /** The write-ahead log beside it (folded into the file at checkpoints). */
  walBytes: z.number().nonnegative(),
  /** Pages no table uses: what a compaction gives back. */
  freeBytes: z.number().nonnegative(),
  sessions: z.number().int().nonnegative(),
  archivedSessions: z.number().int().nonnegative(),
  /** The sessions with the most events, most first. */
  largestSessions: z.array(LargeSessionView),
  /** The search index's pages and their share of the database; unknown where SQLite cannot say. */
  searchIndex: z.object({ bytes: z.number().nonnegative().optional(), share: z.number().min(0).max(1).optional() }),
  /** A compaction was asked for and is done at the next start. */
  compactionRequested: z.boolean(),
});
export type StorageReportViewT = z.output<typeof StorageReportView>;

export const BackupView = z.object({
  /** The file's name in the backups folder. */
  name: z.string(),
  kind: z.enum(['daily', 'pre-migration']),
  takenAt: z.number(),
  schemaVersion: z.number().int().nonnegative(),
  bytes: z.number().nonnegative(),
});
export type BackupViewT = z.output<typeof BackupView>;

export const BackupList = z.object({
  /** Where backups are kept (`<data folder>/backups`). */
  folder: z.string(),
  /** Newest first. */
  backups: z.array(BackupView),
  /** A backup is being taken now. */
  running: z.boolean(),
  /** The last backup that failed, and why (until one succeeds). */
  lastFailure: z.object({ at: z.number(), message: z.string() }).optional(),
});
export type BackupListT = z.output<typeof BackupList>;

/** How old an archived session must be (its last activity) to be cleaned up: whole days, up to ten years. */
export const CleanUpAge = z.object({ olderThanDays: z.number().int().min(0).max(3650) }).strict();

export const CleanUpPreview = z.object({
  /** Archived sessions whose last activity is at or before this time. */
  cutoff: z.number(),
  sessions: z.number().int().nonnegative(),
  events: z.number().int().nonnegative(),
});
export type CleanUpPreviewT = z.output<typeof CleanUpPreview>;

/** Deletes exactly what the preview with this cutoff counted (less whatever was used since). */
export const CleanUp = z.object({ cutoff: z.number() }).strict();

export const CompactionRequested = z.object({
  requestedAt: z.number(),
  /** The host can restart itself now to compact (the desktop app); else at its next start. */
  canRestart: z.boolean(),
});
export type CompactionRequestedT = z.output<typeof CompactionRequested>;
