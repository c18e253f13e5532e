import { openDatabase, type Db, type OpenOptions } from './db';
import { SessionsRepo } from './sessions.repo';
import { BrokersRepo } from './brokers.repo';
import { PermissionsRepo } from './permissions.repo';
import { SettingsRepo } from './settings.repo';
import { AgentsRepo } from './agents.repo';
import { FoldersRepo } from './folders.repo';
import type { Disposable } from '../util/lifecycle';

/** The host's SQLite database and its repositories. */
export class Store implements Disposable {
  readonly sessions: SessionsRepo;
  readonly brokers: BrokersRepo;
  readonly permissions: PermissionsRepo;
  readonly settings: SettingsRepo;
  readonly agents: AgentsRepo;
  readonly folders: FoldersRepo;

  constructor(readonly db: Db) {
    this.sessions = new SessionsRepo(db);
    this.brokers = new BrokersRepo(db);
    this.permissions = new PermissionsRepo(db);
    this.settings = new SettingsRepo(db);
    this.agents = new AgentsRepo(db);
    this.folders = new FoldersRepo(db);
  }

  static open(file: string, options?: OpenOptions): Store {
    return new Store(openDatabase(file, options));
  }

  /** Closes the database. Idempotent. */
  dispose(): void {
    if (this.db.open) this.db.close();
  }
}
