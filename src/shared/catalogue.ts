/**
 * The agent catalogue as the window sees it: stored agents, presets of well-known ACP agents,
 * whether each can start here, and the last `initialize` test. Secret values never appear
 * here: a secret environment entry crosses the contract as its name and whether it is set.
 */
import { z } from 'zod';
import { AuthMethodView } from './events';

export const AgentIdPattern = /^[a-z0-9][a-z0-9._-]*$/i;
export const AgentId = z.string().max(64).regex(AgentIdPattern, 'use letters, digits, dot, dash, underscore');
/** POSIX-portable environment variable names. */
export const EnvName = z.string().max(128).regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'letters, digits and underscore, not starting with a digit');

export const AgentSource = z.enum(['builtin', 'user', 'file']);

/** How a registry agent is distributed: an npm package run by npx, a PyPI one by uvx, a download. */
export const DistributionKind = z.enum(['npx', 'uvx', 'binary']);
export type DistributionKindT = z.output<typeof DistributionKind>;

/**
 * Registry facts of a catalogue agent added from the ACP registry (its Settings row: the
 * version it runs, a newer one, Pin and Roll back). Here rather than in `registry.ts`, which
 * imports this file.
 */
export const RegistryAgentInfo = z.object({
  registryId: z.string(),
  kind: DistributionKind,
  version: z.string(),
  pinned: z.boolean(),
  /** The version Roll back returns to, when one is kept. */
  previousVersion: z.string().optional(),
  /** A newer version in the registry, when there is one. */
  latestVersion: z.string().optional(),
  /** Binary agents: the folder it runs from and the download's sha256 (as verified or first seen). */
  installDir: z.string().optional(),
  sha256: z.string().optional(),
});
export type RegistryAgentInfoT = z.output<typeof RegistryAgentInfo>;

/**
 * Whether an agent's command can start here (a cheap check, not a run): `installed` (the
 * command is on PATH or an executable path; for `npx -y pkg@version`, that version is in the
 * npm cache or installed globally, so it starts offline), `download` (runs through `npx`, which
 * fetches the pinned package on first start: needs the network), `missing`, `checking`.
 */
export const Availability = z.object({
  status: z.enum(['installed', 'download', 'missing', 'checking']),
  /** For the person: where it was found, or what is missing. */
  detail: z.string(),
});

/** A stored environment entry. A secret shows only its name and `set`. */
export const AgentEnvView = z.object({
  name: z.string(),
  secret: z.boolean(),
  value: z.string().optional(),
  set: z.boolean(),
});

export const AgentAuthMethod = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().optional(),
  type: z.string().optional(),
});

/** What `agents:test` found: the agent's own `initialize` answer, or why it failed. */
export const AgentTestResult = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    at: z.number(),
    durationMs: z.number(),
    agentName: z.string().optional(),
    agentTitle: z.string().optional(),
    agentVersion: z.string().optional(),
    protocolVersion: z.number(),
    capabilities: z.json(),
    authMethods: z.array(AgentAuthMethod),
    /** The same methods as the person acts on them (kind, variable, command); absent in tests stored before sign-in from Settings. */
    methods: z.array(AuthMethodView).optional(),
  }),
  z.object({
    ok: z.literal(false),
    at: z.number(),
    durationMs: z.number(),
    message: z.string(),
    stderrTail: z.array(z.string()),
  }),
]);

export const AgentView = z.object({
  id: z.string(),
  name: z.string(),
  command: z.string(),
  args: z.array(z.string()),
  env: z.array(AgentEnvView),
  source: AgentSource,
  presetId: z.string().optional(),
  /** Built-in and agents.json agents are changed elsewhere (code, the file). */
  editable: z.boolean(),
  removable: z.boolean(),
  /** Sessions of this agent that are not ended. */
  openSessions: z.number().int().nonnegative(),
  availability: Availability,
  lastTest: AgentTestResult.optional(),
  /** Advice for this agent (e.g. running as root). */
  hints: z.array(z.string()),
  /** Added from the ACP registry: its version, a newer one, pinned, what Roll back returns to. */
  registry: RegistryAgentInfo.optional(),
  /** Its last Test found `agentCapabilities.auth.logout`: Settings offers Sign out. */
  canSignOut: z.boolean().optional(),
});

export const AgentList = z.object({
  agents: z.array(AgentView),
  /** `<data dir>/agents.json` could not be imported: why, for the settings view. */
  fileError: z.string().optional(),
  agentsFile: z.string(),
});

/** One way to start a preset: a command on PATH, or `npx` with a pinned package version. */
export const PresetLaunch = z.object({
  kind: z.enum(['path', 'npx']),
  command: z.string(),
  args: z.array(z.string()),
  availability: Availability,
});

export const AgentPresetView = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  /** npm package and pinned version, when it installs from npm. */
  npm: z.object({ package: z.string(), version: z.string(), bin: z.string() }).optional(),
  install: z.string(),
  homepage: z.string(),
  launches: z.array(PresetLaunch),
  /** Environment variables it may ask for (API keys): offered as secret rows. */
  envHints: z.array(z.object({ name: z.string(), secret: z.boolean(), description: z.string() })),
  hints: z.array(z.string()),
});

export const SaveAgentEnv = z
  .object({
    name: EnvName,
    secret: z.boolean().default(false),
    /** A secret without a value keeps the stored one. */
    value: z.string().max(32_768).optional(),
  })
  .strict();

export const SaveAgent = z
  .object({
    id: AgentId,
    name: z.string().trim().min(1).max(120),
    command: z.string().trim().min(1, 'command is empty').max(4096),
    args: z.array(z.string().max(4096)).max(256).default([]),
    env: z.array(SaveAgentEnv).max(256).default([]),
    presetId: z.string().optional(),
    /** True for Add: refuses to replace an agent that already has this id. */
    create: z.boolean().default(false),
  })
  .strict()
  .superRefine((a, ctx) => {
    const seen = new Set<string>();
    a.env.forEach((e, i) => {
      if (seen.has(e.name)) ctx.addIssue({ code: 'custom', path: ['env', i, 'name'], message: `${e.name} is listed twice` });
      seen.add(e.name);
      if (!e.secret && e.value === undefined) ctx.addIssue({ code: 'custom', path: ['env', i, 'value'], message: 'needs a value' });
    });
  });

export const ByAgent = z.object({ agentId: z.string().min(1) }).strict();
export const ListAgents = z.object({ refresh: z.boolean().optional() }).strict();

export const AgentTestStep = z.enum(['spawning', 'initializing', 'done']);
export type AgentTestStepT = z.output<typeof AgentTestStep>;
/** Progress of an `agents:test`, to the window that asked. */
export const AgentTestProgress = z.object({ agentId: z.string(), step: AgentTestStep, elapsedMs: z.number() });

export type AgentViewT = z.output<typeof AgentView>;
export type AgentListT = z.output<typeof AgentList>;
export type AgentPresetViewT = z.output<typeof AgentPresetView>;
export type AgentTestResultT = z.output<typeof AgentTestResult>;
export type AvailabilityT = z.output<typeof Availability>;
export type SaveAgentT = z.output<typeof SaveAgent>;
export type SaveAgentInput = z.input<typeof SaveAgent>;
export type AgentTestProgressT = z.output<typeof AgentTestProgress>;
