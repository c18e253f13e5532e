import { describe, expect, it } from 'vitest';
import type { AppState } from '../../store/app-store';
import { renderWith, storeWith } from '../../test-support/static-render';
import { formatBytes, StorageSection } from './storage-section';

const render = (state: Partial<AppState>) => renderWith(storeWith(state), <StorageSection />);
const report = {
  databaseBytes: 1_500_000_000,
  walBytes: 4_000_000,
  freeBytes: 220_000_000,
  sessions: 1_204,
  archivedSessions: 310,
  largestSessions: [
    { id: '0b0e6c1e-1f5a-4a43-9d2c-6f3f1a2b3c4d', title: 'Port the parser', events: 98_000, payloadBytes: 310_000_000, archived: false, lastActivityAt: 1 },
    { id: '1b0e6c1e-1f5a-4a43-9d2c-6f3f1a2b3c4d', title: 'Old spike', events: 40_100, payloadBytes: 90_500_000, archived: true, lastActivityAt: 1 },
  ],
  searchIndex: { bytes: 330_000_000, share: 0.22 },
  compactionRequested: false,
};

describe('Settings → Storage', () => {
  it('shows the database size, the largest sessions and the search index share', () => {
    const html = render({ storageReport: report });
    expect(html).toContain('aria-label="Storage"');
    expect(html).toContain('1.5 GB');
    expect(html).toContain('220 MB unused, given back by Compact');
    expect(html).toContain('1,204 sessions, 310 archived');
    expect(html).toContain('330 MB (22% of the database)');
    expect(html).toContain('Port the parser');
    expect(html).toContain('98,000');
    expect(html).toContain('Old spike<span class="muted"> (archived)</span>');
  });

  it('asks before cleaning up, naming how many sessions and events go', () => {
    const html = render({ storageReport: report, cleanUp: { preview: { cutoff: Date.UTC(2026, 7, 1), sessions: 3, events: 1_250 }, running: false, deleted: undefined, error: undefined } });
    expect(html).toContain('role="alertdialog"');
    expect(html).toContain('This deletes 3 archived sessions last used before');
    expect(html).toContain('1,250 transcript events');
    expect(html).toContain('Delete 3 sessions');
    const none = render({ cleanUp: { preview: { cutoff: 1, sessions: 0, events: 0 }, running: false, deleted: undefined, error: undefined } });
    expect(none).toContain('nothing to delete');
    expect(none).not.toContain('alertdialog');
  });

  it('says a compaction runs at the next start, offering Restart now only where the host can restart', () => {
    const headless = render({ compaction: { requestedAt: 1, canRestart: false }, hostInfo: undefined });
    expect(headless).toContain('Compaction asked for: it runs the next time Switchboard starts.');
    expect(headless).not.toContain('Restart now');
    const desktop = render({
      compaction: { requestedAt: 1, canRestart: true },
      hostInfo: { version: '1', headless: false, clientId: 'c', agents: [], canRestart: true, settings: { idleTimeoutMs: 0, reapIntervalMs: 0, permissionTimeoutMs: 0, defaultCwd: '/', defaultAgentId: 'demo', maxSessionsPerBroker: 8 } },
    });
    expect(desktop).toContain('Restart now');
    expect(render({ storageReport: { ...report, compactionRequested: true } })).toContain('Compaction asked for');
  });

  it('lists the backups with Back up now, a failed one, and how many are kept', () => {
    const html = render({
      settings: { idleTimeoutMs: 0, reapIntervalMs: 0, permissionTimeoutMs: 0, defaultCwd: '/', defaultAgentId: 'demo', maxSessionsPerBroker: 8, backupsKept: 7 },
      backups: {
        folder: '/data/backups',
        running: false,
        backups: [{ name: 'switchboard-2026-11-26T13-04-05-123Z-v0013-daily.db', kind: 'daily', takenAt: Date.UTC(2026, 10, 26, 13, 4), schemaVersion: 13, bytes: 1_400_000_000 }],
        lastFailure: { at: Date.UTC(2026, 10, 27), message: 'the backup failed its check: database disk image is malformed' },
      },
    });
    expect(html).toContain('into /data/backups');
    expect(html).toContain('Daily');
    expect(html).toContain('1.4 GB');
    expect(html).toContain('The last backup failed');
    expect(html).toContain('database disk image is malformed');
    expect(html).toContain('Back up now');
    expect(html).toMatch(/Backups kept<\/label><input[^>]*value="7"/);
    expect(render({ backups: { folder: '/b', running: true, backups: [] } })).toContain('Backing up…');
  });

  it('formats sizes as file managers do', () => {
    expect(formatBytes(0)).toBe('0 bytes');
    expect(formatBytes(1)).toBe('1 byte');
    expect(formatBytes(999)).toBe('999 bytes');
    expect(formatBytes(1_234)).toBe('1.2 KB');
    expect(formatBytes(45_600_000)).toBe('46 MB');
    expect(formatBytes(10_200_000_000)).toBe('10 GB');
  });
});
