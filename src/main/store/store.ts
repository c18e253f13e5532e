import { openDatabase, type Db, type OpenOptions } from './db';
import { SessionsRepo } from './sessions.repo';
import { BrokersRepo } from './brokers.repo';
import { PermissionsRepo } from './permissions.repo';
import { QuestionsRepo } from './questions.repo';
import { SettingsRepo } from './settings.repo';
import { AgentsRepo } from './agents.repo';
import { FoldersRepo } from './folders.repo';
import { DraftsRepo } from './drafts.repo';
import { McpServersRepo } from './mcp-servers.repo';
import { RegistryRepo } from './registry.repo';
import { WorkspacesRepo } from './workspaces.repo';
import type { Disposable } from '../util/lifecycle';
import { asStorageError } from './storage-errors';

/** The host's SQLite database and its repositories. */
export class Store implements Disposable {
  readonly sessions: SessionsRepo;
  readonly brokers: BrokersRepo;
  readonly permissions: PermissionsRepo;
  readonly questions: QuestionsRepo;
  readonly settings: SettingsRepo;
  readonly agents: AgentsRepo;
  readonly folders: FoldersRepo;
  readonly drafts: DraftsRepo;
  readonly registry: RegistryRepo;
  readonly mcpServers: McpServersRepo;
  readonly workspaces: WorkspacesRepo;

  constructor(readonly db: Db) {
    this.sessions = new SessionsRepo(db);
    this.brokers = new BrokersRepo(db);
    this.permissions = new PermissionsRepo(db);
    this.questions = new QuestionsRepo(db);
    this.settings = new SettingsRepo(db);
    this.agents = new AgentsRepo(db);
    this.folders = new FoldersRepo(db);
    this.drafts = new DraftsRepo(db);
    this.registry = new RegistryRepo(db);
    this.mcpServers = new McpServersRepo(db);
    this.workspaces = new WorkspacesRepo(db);
  }

  /** Opens the file; a damaged, newer or unwritable one is refused with a StorageError that says what to do. */
  static open(file: string, options?: OpenOptions): Store {
    try {
      return new Store(openDatabase(file, options));
    } catch (err) {
      throw asStorageError(err, file) ?? err;
    }
  }

  /** Closes the database. Idempotent. */
  dispose(): void {
    if (this.db.open) this.db.close();
  }
}
