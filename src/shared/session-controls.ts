/**
 * What an agent lets a person choose for a session (ACP `modes`, the unstable `models`,
 * `configOptions`) and what it reports of its use (`usage_update`, a prompt answer's `usage`),
 * as the host stores them and the session header shows them. One place decides which header
 * controls these make and which choices skip permission prompts, so the host (remembered
 * defaults) and the window (labels, warnings) never disagree.
 */
import { z } from 'zod';

const text = z.string();
/** Agents send `description: null`; the header treats it as absent. */
const optionalText = z.string().nullish().transform((v) => v ?? undefined).optional();
const optionalCount = z.number().nonnegative().nullish().transform((v) => v ?? undefined).optional();

export const SessionModeChoice = z.object({ id: text, name: text, description: optionalText });
export const ModeState = z.object({ currentModeId: text, availableModes: z.array(SessionModeChoice) });
export type ModeState = z.output<typeof ModeState>;

/** ACP's unstable `models` (Qwen Code sends it besides a `model` config option). */
export const ModelChoice = z.object({ modelId: text, name: text, description: optionalText });
export const ModelState = z.object({ currentModelId: text, availableModels: z.array(ModelChoice) });
export type ModelState = z.output<typeof ModelState>;

export const ConfigSelectChoice = z.object({ value: text, name: text, description: optionalText });
export const ConfigSelectGroup = z.object({ group: text, name: text, options: z.array(ConfigSelectChoice) });
const configCommon = {
  id: text,
  name: text,
  description: optionalText,
  /** `mode`, `model`, `model_config`, `thought_level`, or an agent's own (UX only). */
  category: optionalText,
};
export const ConfigOption = z.discriminatedUnion('type', [
  z.object({
    ...configCommon,
    type: z.literal('select'),
    currentValue: text,
    options: z.union([z.array(ConfigSelectChoice), z.array(ConfigSelectGroup)]),
  }),
  z.object({ ...configCommon, type: z.literal('boolean'), currentValue: z.boolean() }),
]);
export type ConfigOption = z.output<typeof ConfigOption>;

export const Cost = z.object({ amount: z.number(), currency: text });
export type Cost = z.output<typeof Cost>;

/** Token counts as ACP's (unstable) `Usage` names them. */
export const TokenUsage = z.object({
  inputTokens: z.number().nonnegative(),
  outputTokens: z.number().nonnegative(),
  totalTokens: z.number().nonnegative(),
  thoughtTokens: optionalCount,
  cachedReadTokens: optionalCount,
  cachedWriteTokens: optionalCount,
});
export type TokenUsage = z.output<typeof TokenUsage>;

/** ACP `usage_update`: the context window now, and the session's cumulative cost. */
export const ContextUsage = z.object({ used: z.number().nonnegative(), size: z.number().nonnegative() });
export type ContextUsage = z.output<typeof ContextUsage>;

/** A session's use so far: the last `usage_update`, and the turns' tokens summed. */
export const SessionUsage = z.object({
  context: ContextUsage.optional(),
  /** Cumulative, as the agent reports it. */
  cost: Cost.optional(),
  /** The sum of every turn's `usage` the agent reported. */
  tokens: TokenUsage.optional(),
});
export type SessionUsage = z.output<typeof SessionUsage>;

/** One turn's use, on its `turn_ended`: the agent's own count, and what the session cost rose by. */
export const TurnUsage = z.object({
  tokens: TokenUsage.optional(),
  cost: Cost.optional(),
  context: ContextUsage.optional(),
});
export type TurnUsage = z.output<typeof TurnUsage>;

/** What the header shows of a session: stored with it, pushed to watching windows. */
export const SessionControls = z.object({
  /** Grows with every change: a window keeps the highest it has seen. */
  rev: z.number().int().nonnegative(),
  modes: ModeState.optional(),
  models: ModelState.optional(),
  configOptions: z.array(ConfigOption).optional(),
  usage: SessionUsage.optional(),
});
export type SessionControls = z.output<typeof SessionControls>;

/** How a header control is changed: the ACP method it maps to. */
export const ControlTarget = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('mode') }),
  z.object({ kind: z.literal('model') }),
  z.object({ kind: z.literal('option'), configId: z.string().min(1) }),
]);
export type ControlTarget = z.output<typeof ControlTarget>;

/**
 * Whether a mode lets the agent act without asking: `all` (every tool runs unasked: Claude's
 * `bypassPermissions`, Qwen's `yolo`), `some` (a class of actions is approved for the person:
 * Claude's `acceptEdits` and `auto` ("Claude handles permission decisions"), Qwen's
 * `auto-edit` and `auto` ("LLM classifier auto-approves safe actions"; it wrote a file
 * without asking, ACP.md)), or undefined. Read from the id, the name and the description the
 * agent gave: a new agent's wording is caught by the description rules.
 */
export type PermissionSkip = 'all' | 'some';

const SKIPS_ALL = /bypass|yolo|dangerous|full[-_ ]?access|dont[-_ ]?ask|skip[-_ ]?permissions?|accepts? all permissions|approves? all|all tools/i;
const SKIPS_SOME =
  /^auto$|auto[-_ ]?(edit|accept|approve)|accept[-_ ]?edits|autopilot|auto[- ]?approv|automatically (accept|approve)|without (asking|approval|permission)|handles permission decisions/i;

export function permissionSkip(choice: { id: string; name: string; description?: string | undefined }): PermissionSkip | undefined {
  const words = [choice.id, choice.name, choice.description ?? ''];
  if (words.some((w) => SKIPS_ALL.test(w))) return 'all';
  if (words.some((w) => SKIPS_SOME.test(w))) return 'some';
  return undefined;
}

/** One choice of a select control. */
export interface ControlChoice {
  value: string;
  name: string;
  description: string | undefined;
  /** The group it is listed under (grouped config options). */
  group: string | undefined;
  /** Mode controls only: the choice lets the agent act without asking. */
  skip: PermissionSkip | undefined;
}

/** A control of the session header, named after what the agent called it. */
export type HeaderControl =
  | { key: string; label: string; role: 'mode' | 'model' | 'option'; kind: 'select'; value: string; choices: ControlChoice[]; target: ControlTarget }
  | { key: string; label: string; role: 'option'; kind: 'boolean'; value: boolean; target: ControlTarget };

type FlatChoice = Omit<ControlChoice, 'skip'>;

function flatChoices(option: Extract<ConfigOption, { type: 'select' }>): FlatChoice[] {
  return option.options.flatMap((o): FlatChoice[] =>
    'group' in o
      ? o.options.map((c) => ({ value: c.value, name: c.name, description: c.description, group: o.name }))
      : [{ value: o.value, name: o.name, description: o.description, group: undefined }],
  );
}

/**
 * The header's controls. A config option is the control for what its category names: agents
 * send a `mode` (and `model`) config option besides the older `modes` / `models` fields for
 * clients that predate config options, and ACP asks clients that read config options to use
 * them; the older fields make a `Mode` / `Model` control only when no config option covers them.
 */
export function headerControls(c: SessionControls | undefined): HeaderControl[] {
  if (!c) return [];
  const out: HeaderControl[] = [];
  const options = c.configOptions ?? [];
  const modeOption = options.find((o) => o.category === 'mode' && o.type === 'select');
  const modelOption = options.find((o) => o.category === 'model' && o.type === 'select');
  if (!modeOption && c.modes && c.modes.availableModes.length > 0) {
    out.push({
      key: 'mode',
      label: 'Mode',
      role: 'mode',
      kind: 'select',
      value: c.modes.currentModeId,
      choices: c.modes.availableModes.map((m) => ({ value: m.id, name: m.name, description: m.description, group: undefined, skip: permissionSkip(m) })),
      target: { kind: 'mode' },
    });
  }
  if (!modelOption && c.models && c.models.availableModels.length > 0) {
    out.push({
      key: 'model',
      label: 'Model',
      role: 'model',
      kind: 'select',
      value: c.models.currentModelId,
      choices: c.models.availableModels.map((m) => ({ value: m.modelId, name: m.name, description: m.description, group: undefined, skip: undefined })),
      target: { kind: 'model' },
    });
  }
  for (const o of options) {
    const target: ControlTarget = { kind: 'option', configId: o.id };
    if (o.type === 'boolean') {
      out.push({ key: `option:${o.id}`, label: o.name, role: 'option', kind: 'boolean', value: o.currentValue, target });
      continue;
    }
    const role = o === modeOption ? 'mode' : o === modelOption ? 'model' : 'option';
    const choices = flatChoices(o).map((ch) => ({
      ...ch,
      skip: role === 'mode' ? permissionSkip({ id: ch.value, name: ch.name, description: ch.description }) : undefined,
    }));
    out.push({ key: `option:${o.id}`, label: o.name, role, kind: 'select', value: o.currentValue, choices, target });
  }
  // Mode first, then model, then the rest in the agent's order.
  const rank = { mode: 0, model: 1, option: 2 } as const;
  return out.map((ctl, i) => ({ ctl, i })).sort((a, b) => rank[a.ctl.role] - rank[b.ctl.role] || a.i - b.i).map(({ ctl }) => ctl);
}

/** The current mode's choice, when it lets the agent act without asking. */
export function currentSkip(c: SessionControls | undefined): { name: string; skip: PermissionSkip } | undefined {
  const mode = headerControls(c).find((ctl) => ctl.role === 'mode');
  if (mode?.kind !== 'select') return undefined;
  const choice = mode.choices.find((ch) => ch.value === mode.value);
  return choice?.skip ? { name: choice.name, skip: choice.skip } : undefined;
}
