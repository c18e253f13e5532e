import type { SettingsT } from '../../shared/contract';
import type { SettingsRepo } from '../store/settings.repo';
import { Emitter, type Event } from '../util/event';
import { DEFAULT_SETTINGS, normaliseSettings, storedSettings } from './settings';

export interface SettingsChange {
  settings: SettingsT;
  /** Only the keys this update set, normalised. */
  changed: Partial<SettingsT>;
}

/**
 * The settings in force: defaults, then what is stored, then this run's command-line values
 * (which override the stored ones without replacing them). An update is checked, stored and
 * announced; whoever depends on a setting (windows, the reaper, the agents' protocol log)
 * subscribes.
 */
export class LiveSettings {
  private current: SettingsT;
  private readonly didChange = new Emitter<SettingsChange>();
  readonly onDidChange: Event<SettingsChange> = this.didChange.event;

  constructor(
    private readonly repo: SettingsRepo,
    overrides: Partial<SettingsT> = {},
    /** Refuses an update that would break what depends on it (throws `AppError`); nothing is stored then. */
    private readonly check: (patch: Partial<SettingsT>) => void = () => {},
  ) {
    this.current = { ...DEFAULT_SETTINGS, ...normaliseSettings(storedSettings(repo.all())), ...normaliseSettings(overrides) };
  }

  get value(): SettingsT {
    return this.current;
  }

  update(patch: Partial<SettingsT>): SettingsT {
    const changed = normaliseSettings(patch);
    this.check(changed);
    for (const [key, value] of Object.entries(changed)) this.repo.set(key, value);
    this.current = { ...this.current, ...changed };
    this.didChange.fire({ settings: this.current, changed });
    return this.current;
  }
}
