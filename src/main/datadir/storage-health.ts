/**
 * Whether the host can save right now. A write that fails because of the disk or the file
 * (not a bad query) turns the status to a problem, which every window hears once, and every
 * window that connects meanwhile too; the next write that commits turns it back, and windows
 * hear that as well. Reads and other sessions go on in between: nothing here stops the host.
 */
import type { StorageStatusT } from '../../shared/contract';
import { asStorageError, type StorageError } from '../store/storage-errors';
import type { Logger } from '../util/log';

export interface StorageHealthOptions {
  file: string;
  log: Logger;
  broadcast(status: StorageStatusT): void;
}

export class StorageHealth {
  private current: StorageStatusT = { ok: true };
  private lost = 0;
  /** Set once the database is found damaged: no later write that commits clears it. */
  private damage: StorageStatusT | undefined;

  constructor(private readonly o: StorageHealthOptions) {}

  get status(): StorageStatusT {
    return this.current;
  }

  /**
   * A write failed; `lost` events went with it. Returns the StorageError to answer with when
   * it was the disk or the file, else undefined (a bug, not a storage problem).
   */
  failed(err: unknown, lost = 0): StorageError | undefined {
    const error = asStorageError(err, this.o.file);
    if (!error) return undefined;
    this.lost += lost;
    if (this.damage) return error;
    if (this.current.ok || this.current.problem !== error.problem) {
      this.o.log.error('cannot save', { problem: error.problem, error: String(err) });
      this.set({ ok: false, problem: error.problem, message: error.message });
    }
    return error;
  }

  /**
   * The database is damaged (its check failed while the host runs). Writes may still commit
   * (the damage can be in pages they never touch), so only a restart clears this.
   */
  damaged(message: string): void {
    this.damage = { ok: false, problem: 'corrupt', message };
    this.set(this.damage);
  }

  /** A write committed: saving works (again). */
  succeeded(): void {
    if (this.current.ok || this.current === this.damage) return;
    this.o.log.warn('saving works again', { lostWhileFailing: this.lost });
    this.lost = 0;
    this.set({ ok: true });
  }

  private set(status: StorageStatusT): void {
    this.current = status;
    this.o.broadcast(status);
  }
}

