import {
  ConfigOption,
  ContextUsage,
  Cost,
  ModelState,
  ModeState,
  TokenUsage,
  type ControlTarget,
  type SessionControls,
  type TurnUsage,
} from '../../shared/contract';

/**
 * Pure steps from what an agent sent to the controls stored for its session. Agents are
 * checked field by field: a malformed part is dropped (ACP's own "default on error"), never
 * the rest of the answer.
 */

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function parsed<T>(schema: { safeParse(v: unknown): { success: true; data: T } | { success: false } }, value: unknown): T | undefined {
  const r = schema.safeParse(value);
  return r.success ? r.data : undefined;
}

/** Config options as sent, without the ones that do not parse (ACP: skip invalid items). */
function configOptionsOf(value: unknown): ConfigOption[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.flatMap((item) => {
    const option = parsed(ConfigOption, item);
    return option ? [option] : [];
  });
}

function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}

/**
 * The controls an answer to `session/new`, `load` or `resume` gives: its modes, models and
 * options replace the earlier ones (the agent says what holds now); usage so far is kept.
 */
export function fromSessionAnswer(prev: SessionControls | undefined, answer: unknown): SessionControls {
  const a = isObj(answer) ? answer : {};
  const next: SessionControls = {
    rev: prev?.rev ?? 0,
    ...optional('modes', parsed(ModeState, a.modes)),
    ...optional('models', parsed(ModelState, a.models)),
    ...optional('configOptions', configOptionsOf(a.configOptions)),
    ...optional('usage', prev?.usage),
  };
  return next;
}

/** The config option of a category, if the agent sent one. */
function optionOf(c: SessionControls, category: 'mode' | 'model'): ConfigOption | undefined {
  return c.configOptions?.find((o) => o.category === category && o.type === 'select');
}

function offers(option: ConfigOption, value: string): boolean {
  if (option.type !== 'select') return false;
  return option.options.some((o) => ('group' in o ? o.options.some((c) => c.value === value) : o.value === value));
}

function withOptionValue(c: SessionControls, configId: string, value: string | boolean): SessionControls {
  if (!c.configOptions) return c;
  return {
    ...c,
    configOptions: c.configOptions.map((o) => {
      if (o.id !== configId) return o;
      if (o.type === 'boolean') return typeof value === 'boolean' ? { ...o, currentValue: value } : o;
      return typeof value === 'string' ? { ...o, currentValue: value } : o;
    }),
  };
}

/**
 * The mode is now `modeId`, in both places an agent may keep it (`modes` and a `mode` config
 * option), so the header never shows two answers.
 */
export function withMode(c: SessionControls, modeId: string): SessionControls {
  let next = c.modes && c.modes.availableModes.some((m) => m.id === modeId) ? { ...c, modes: { ...c.modes, currentModeId: modeId } } : c;
  const option = optionOf(next, 'mode');
  if (option && offers(option, modeId)) next = withOptionValue(next, option.id, modeId);
  return next;
}

export function withModel(c: SessionControls, modelId: string): SessionControls {
  let next = c.models && c.models.availableModels.some((m) => m.modelId === modelId) ? { ...c, models: { ...c.models, currentModelId: modelId } } : c;
  const option = optionOf(next, 'model');
  if (option && offers(option, modelId)) next = withOptionValue(next, option.id, modelId);
  return next;
}

/** After the config options changed: `modes` / `models` follow their config options. */
function synced(c: SessionControls): SessionControls {
  const mode = optionOf(c, 'mode');
  const model = optionOf(c, 'model');
  let next = c;
  if (mode && typeof mode.currentValue === 'string' && next.modes?.availableModes.some((m) => m.id === mode.currentValue)) {
    next = { ...next, modes: { ...next.modes, currentModeId: mode.currentValue } };
  }
  if (model && typeof model.currentValue === 'string' && next.models?.availableModels.some((m) => m.modelId === model.currentValue)) {
    next = { ...next, models: { ...next.models, currentModelId: model.currentValue } };
  }
  return next;
}

/** `session/update` variants that change the controls (the last one is the unstable models'). */
export const CONTROL_UPDATES = new Set(['current_mode_update', 'config_option_update', 'usage_update', 'current_model_update']);

/** The controls after one of `CONTROL_UPDATES`; unchanged when it does not parse. */
export function applyUpdate(c: SessionControls, update: Obj): SessionControls {
  switch (update.sessionUpdate) {
    case 'current_mode_update':
      return typeof update.currentModeId === 'string' ? withMode(c, update.currentModeId) : c;
    case 'current_model_update':
      return typeof update.currentModelId === 'string' ? withModel(c, update.currentModelId) : c;
    case 'config_option_update': {
      const configOptions = configOptionsOf(update.configOptions);
      return configOptions ? synced({ ...c, configOptions }) : c;
    }
    case 'usage_update': {
      const context = parsed(ContextUsage, { used: update.used, size: update.size });
      const cost = parsed(Cost, update.cost);
      if (!context && !cost) return c;
      return { ...c, usage: { ...c.usage, ...optional('context', context), ...optional('cost', cost) } };
    }
    default:
      return c;
  }
}

/** What the header offers for `target`, if the value is one of its choices. */
export function isOffered(c: SessionControls, target: ControlTarget, value: string | boolean): boolean {
  switch (target.kind) {
    case 'mode':
      return typeof value === 'string' && (c.modes?.availableModes.some((m) => m.id === value) ?? false);
    case 'model':
      return typeof value === 'string' && (c.models?.availableModels.some((m) => m.modelId === value) ?? false);
    case 'option': {
      const option = c.configOptions?.find((o) => o.id === target.configId);
      if (!option) return false;
      return option.type === 'boolean' ? typeof value === 'boolean' : typeof value === 'string' && offers(option, value);
    }
  }
}

/** The controls once the agent accepted `value` for `target` (`answer`: its reply, which may list the options anew). */
export function afterSet(c: SessionControls, target: ControlTarget, value: string | boolean, answer: unknown): SessionControls {
  if (target.kind === 'mode' && typeof value === 'string') return withMode(c, value);
  if (target.kind === 'model' && typeof value === 'string') return withModel(c, value);
  if (target.kind !== 'option') return c;
  const listed = isObj(answer) ? configOptionsOf(answer.configOptions) : undefined;
  return synced(listed ? { ...c, configOptions: listed } : withOptionValue(c, target.configId, value));
}

function sum(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined && b === undefined ? undefined : (a ?? 0) + (b ?? 0);
}

export function addTokens(a: TokenUsage | undefined, b: TokenUsage): TokenUsage {
  if (!a) return b;
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    totalTokens: a.totalTokens + b.totalTokens,
    ...optional('thoughtTokens', sum(a.thoughtTokens, b.thoughtTokens)),
    ...optional('cachedReadTokens', sum(a.cachedReadTokens, b.cachedReadTokens)),
    ...optional('cachedWriteTokens', sum(a.cachedWriteTokens, b.cachedWriteTokens)),
  };
}

/**
 * One turn's use: the tokens its answer reported (ACP's unstable `PromptResponse.usage`, for
 * this turn), what the session's cumulative cost rose by while it ran, and the context
 * window at its end. Undefined when the agent reported nothing.
 */
export function turnUsage(costBefore: Cost | undefined, after: SessionControls | undefined, reported: unknown): TurnUsage | undefined {
  const tokens = parsed(TokenUsage, reported);
  const costAfter = after?.usage?.cost;
  let cost: Cost | undefined;
  if (costAfter && (!costBefore || costBefore.currency === costAfter.currency)) {
    const amount = costAfter.amount - (costBefore?.amount ?? 0);
    if (amount > 0 || !costBefore) cost = { amount, currency: costAfter.currency };
  }
  const context = after?.usage?.context;
  if (!tokens && !cost) return undefined;
  return { ...optional('tokens', tokens), ...optional('cost', cost), ...optional('context', context) };
}
