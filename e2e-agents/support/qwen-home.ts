import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StandInModel } from './stand-in-model';

/**
 * Points Qwen Code at the stand-in model: `<home>/.qwen/settings.json` picks the OpenAI auth
 * type and declares the stand-in's model under `modelProviders.openai`, and the environment
 * gives the key, base URL and model. `home` is a throwaway HOME: nothing touches the real one.
 */
export function qwenEnvironment(home: string, model: StandInModel): Record<string, string> {
  mkdirSync(join(home, '.qwen'), { recursive: true });
  const settings = {
    security: { auth: { selectedType: 'openai' } },
    model: { name: model.model },
    modelProviders: { openai: [{ id: model.model, name: 'Switchboard stand-in model', baseUrl: model.baseUrl, envKey: 'OPENAI_API_KEY' }] },
    // Ask before every edit: the suite proves the permission round trip (the default, `auto`,
    // lets a model classifier approve edits).
    tools: { approvalMode: 'default' },
    // Offline and quiet: no usage statistics, no update checks.
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    general: { disableAutoUpdate: true, disableUpdateNag: true },
  };
  writeFileSync(join(home, '.qwen', 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`);
  return { OPENAI_API_KEY: 'stand-in-key', OPENAI_BASE_URL: model.baseUrl, OPENAI_MODEL: model.model };
}

