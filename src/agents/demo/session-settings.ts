/**
 * The demo agent's modes, models and config option, shaped like real agents' (Claude's and
 * Qwen's adapters): `modes` in the `session/new` answer, the unstable `models` with
 * `session/set_model`, and a `configOptions` select with `session/set_config_option`. One
 * mode, `bypass`, runs tools without asking, like Claude's `bypassPermissions`.
 */
import * as acp from '@agentclientprotocol/sdk';
import type { SessionConfigOption, SessionMode, SessionModeState } from '@agentclientprotocol/sdk';

export const DEMO_MODES: SessionMode[] = [
  { id: 'ask', name: 'Ask', description: 'Ask before every edit or command' },
  { id: 'code', name: 'Code', description: 'Ask before edits and commands; reads run freely' },
  { id: 'bypass', name: 'Bypass permissions', description: 'Runs every tool without asking' },
];
export const DEFAULT_MODE = 'ask';

/** The unstable ACP `ModelInfo` (the SDK 2.4 no longer names it). */
export type DemoModel = { modelId: string; name: string; description: string };
export const DEMO_MODELS: DemoModel[] = [
  { modelId: 'demo-fast', name: 'Demo Fast', description: 'Quick answers' },
  { modelId: 'demo-smart', name: 'Demo Smart', description: 'Slower, thorough answers' },
  // Exists so a client can show a refused change: choosing it always fails.
  { modelId: 'demo-offline', name: 'Demo Offline', description: 'Never available' },
];
export const DEFAULT_MODEL = 'demo-fast';
export const UNAVAILABLE_MODEL = 'demo-offline';

export const VERBOSITY_ID = 'verbosity';
const VERBOSITY_VALUES = [
  { value: 'terse', name: 'Terse' },
  { value: 'normal', name: 'Normal' },
  { value: 'chatty', name: 'Chatty' },
];

/** A boolean option, offered only to a client that advertises `session.configOptions.boolean` (ACP asks so). */
export const THINK_ID = 'think-aloud';

/** What one demo session is set to; `booleans`: the client takes boolean options. */
export type DemoSettings = { modeId: string; modelId: string; verbosity: string; thinkAloud: boolean; readonly booleans: boolean };

export function defaultSettings(startMode: string | undefined, booleans: boolean): DemoSettings {
  const modeId = DEMO_MODES.some((m) => m.id === startMode) ? (startMode as string) : DEFAULT_MODE;
  return { modeId, modelId: DEFAULT_MODEL, verbosity: 'normal', thinkAloud: false, booleans };
}

export function modeState(s: DemoSettings): SessionModeState {
  return { currentModeId: s.modeId, availableModes: DEMO_MODES };
}

export function configOptions(s: DemoSettings): SessionConfigOption[] {
  const verbosity: SessionConfigOption = { id: VERBOSITY_ID, name: 'Verbosity', description: 'How much the demo agent says', type: 'select', currentValue: s.verbosity, options: VERBOSITY_VALUES };
  if (!s.booleans) return [verbosity];
  return [verbosity, { id: THINK_ID, name: 'Think aloud', description: 'An on/off option with no effect: shows how a client sets one', type: 'boolean', currentValue: s.thinkAloud }];
}

/**
 * What `session/new`, `load` and `resume` answer with besides the session id: the stable
 * `modes` and `configOptions`, and the unstable `models` (typed here, outside the SDK's types).
 */
export function sessionSetup(s: DemoSettings): { modes: SessionModeState; configOptions: SessionConfigOption[]; models: { currentModelId: string; availableModels: DemoModel[] } } {
  return { modes: modeState(s), configOptions: configOptions(s), models: { currentModelId: s.modelId, availableModels: DEMO_MODELS } };
}

export function modeName(id: string): string | undefined {
  return DEMO_MODES.find((m) => m.id === id)?.name;
}

/** Applies `session/set_mode`; throws invalid params for a mode it does not have. */
export function setMode(s: DemoSettings, modeId: string): void {
  if (!modeName(modeId)) throw acp.RequestError.invalidParams({ modeId }, `Unknown mode ${modeId}; modes: ${DEMO_MODES.map((m) => m.id).join(', ')}`);
  s.modeId = modeId;
}

/** Applies `session/set_model`; `demo-offline` is always refused, as an agent refuses a model it cannot reach. */
export function setModel(s: DemoSettings, modelId: string): void {
  const model = DEMO_MODELS.find((m) => m.modelId === modelId);
  if (!model) throw acp.RequestError.invalidParams({ modelId }, `Unknown model ${modelId}`);
  if (modelId === UNAVAILABLE_MODEL) throw new acp.RequestError(-32603, `${model.name} is not available right now`);
  s.modelId = modelId;
}

/** Applies `session/set_config_option`; answers with every option, as ACP asks. */
export function setConfigOption(s: DemoSettings, configId: string, value: unknown): SessionConfigOption[] {
  if (configId === THINK_ID && s.booleans) {
    if (typeof value !== 'boolean') throw acp.RequestError.invalidParams({ value }, 'Think aloud is on or off');
    s.thinkAloud = value;
    return configOptions(s);
  }
  if (configId !== VERBOSITY_ID) throw acp.RequestError.invalidParams({ configId }, `Unknown config option ${configId}`);
  if (typeof value !== 'string' || !VERBOSITY_VALUES.some((v) => v.value === value)) {
    throw acp.RequestError.invalidParams({ value }, `Verbosity must be one of ${VERBOSITY_VALUES.map((v) => v.value).join(', ')}`);
  }
  s.verbosity = value;
  return configOptions(s);
}

/** The parameters of the unstable `session/set_model`, checked by hand (the SDK has no schema for it). */
export const setModelParams = {
  parse(raw: unknown): { sessionId: string; modelId: string } {
    const p = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
    if (typeof p.sessionId !== 'string' || typeof p.modelId !== 'string') {
      throw acp.RequestError.invalidParams(raw, 'session/set_model needs sessionId and modelId');
    }
    return { sessionId: p.sessionId, modelId: p.modelId };
  },
};
