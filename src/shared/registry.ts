/**
 * The public ACP registry (github.com/agentclientprotocol/registry) as Switchboard reads it:
 * one manifest per agent (its `agent.schema.json`), aggregated into an index
 * (`registry.schema.json`) published at `DEFAULT_REGISTRY_URL`. Every string that later
 * becomes a file name, a command or an argument is constrained here, so a hostile index is
 * refused at the door rather than checked at each use.
 */
import { z } from 'zod';
import { DistributionKind, EnvName, RegistryAgentInfo } from './catalogue';

// Defined beside the agent catalogue (an agent's Settings row shows them); named here too.
export { DistributionKind, RegistryAgentInfo };
export type { DistributionKindT, RegistryAgentInfoT } from './catalogue';

/** Where the registry's CI publishes the aggregated index (its README, "Usage"). */
export const DEFAULT_REGISTRY_URL = 'https://cdn.agentclientprotocol.com/registry/v1/latest/registry.json';

/** The registry's platform targets (FORMAT.md, "Platform Targets"). */
export const RegistryPlatform = z.enum(['darwin-aarch64', 'darwin-x86_64', 'linux-aarch64', 'linux-x86_64', 'windows-aarch64', 'windows-x86_64']);
export type RegistryPlatformT = z.output<typeof RegistryPlatform>;

/** As the registry's schema (`^[a-z][a-z0-9-]*$`); it names a folder in the data dir. */
export const RegistryId = z.string().max(64).regex(/^[a-z][a-z0-9-]*$/, 'lowercase letters, digits and hyphens, starting with a letter');

/**
 * The registry asks for `^[0-9]+\.[0-9]+\.[0-9]+` and nothing more; the rest is limited to
 * semver's characters because a version names a folder (`agents/<id>/<version>/`).
 */
export const RegistryVersion = z
  .string()
  .max(64)
  .regex(/^\d+\.\d+\.\d+[0-9A-Za-z.+-]*$/, 'a semantic version (1.2.3)');

const Args = z.array(z.string().max(4096)).max(256);
const Env = z.record(EnvName, z.string().max(32_768));

/** An `http(s)` address; downloads are further limited to https (or loopback http) when made. */
const HttpUrl = z.url({ protocol: /^https?$/, error: 'an http(s) address' }).max(2048);

/**
 * The command in an unpacked archive (`./codex-acp`, `bin/x`): relative, and never leaving
 * the agent's folder.
 */
const RelativeCommand = z
  .string()
  .min(1)
  .max(1024)
  .refine((s) => !/^([/\\]|[A-Za-z]:)/.test(s) && !s.includes('\0'), 'a path inside the unpacked archive')
  .refine((s) => !s.split(/[/\\]+/).includes('..'), 'a path inside the unpacked archive');

/**
 * An npm package spec as npx is given it: `[@scope/]name[@version]`. Never starts with `-`,
 * so an index can't slip an option to npx.
 */
export const NpmPackageSpec = z
  .string()
  .max(214 + 64)
  .regex(/^(@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*(@[0-9A-Za-z.+-]+)?$/, 'an npm package, optionally @version');

/** A PyPI requirement as uvx takes it: `name[extras]`, optionally `@version` or `==version`. */
export const PypiPackageSpec = z
  .string()
  .max(256)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*(\[[A-Za-z0-9._,-]+\])?((==|@)[0-9A-Za-z.+!-]+)?$/, 'a PyPI package, optionally @version or ==version');

/**
 * One platform's download. The registry's schema has no checksum today; `sha256` is read
 * when an entry carries one (and verified), so a registry that adds it is honoured at once.
 */
export const BinaryTarget = z.object({
  archive: HttpUrl,
  cmd: RelativeCommand,
  args: Args.optional(),
  env: Env.optional(),
  sha256: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/)
    .transform((s) => s.toLowerCase())
    .optional(),
});
export type BinaryTargetT = z.output<typeof BinaryTarget>;

export const NpxDistribution = z.object({ package: NpmPackageSpec, args: Args.optional(), env: Env.optional() });
export const UvxDistribution = z.object({ package: PypiPackageSpec, args: Args.optional(), env: Env.optional() });

/**
 * Binary targets keyed by platform. A key this build does not know (a future platform) is
 * dropped rather than failing the entry, so an index that grows still reads.
 */
const BinaryDistribution = z.object(
  Object.fromEntries(RegistryPlatform.options.map((p) => [p, BinaryTarget.optional()])) as Record<RegistryPlatformT, z.ZodOptional<typeof BinaryTarget>>,
);

export const RegistryDistribution = z
  .object({ binary: BinaryDistribution.optional(), npx: NpxDistribution.optional(), uvx: UvxDistribution.optional() })
  .refine((d) => d.npx || d.uvx || (d.binary && Object.keys(d.binary).length > 0), 'no npx, uvx or binary distribution');

/** One agent's manifest (`<id>/agent.json`, or an entry of the published index). */
export const RegistryManifest = z.object({
  id: RegistryId,
  name: z.string().min(1).max(200),
  version: RegistryVersion,
  description: z.string().min(1).max(2000),
  repository: HttpUrl.optional(),
  authors: z.array(z.string().max(200)).max(50).optional(),
  license: z.string().max(200).optional(),
  /** An address of a 16×16 monochrome SVG (`currentColor`); the index points at its CDN. */
  icon: z.string().max(2048).optional(),
  distribution: RegistryDistribution,
});
export type RegistryManifestT = z.output<typeof RegistryManifest>;
export type RegistryManifestInput = z.input<typeof RegistryManifest>;


/** The index as it is published: `{ version, agents, extensions }`. */
export const RegistryIndex = z.object({
  version: z.string().max(64).regex(/^\d+\.\d+\.\d+/),
  agents: z.array(RegistryManifest),
  extensions: z.array(RegistryManifest).default([]),
});
export type RegistryIndexT = z.output<typeof RegistryIndex>;

/** What was left out of an index: an entry that did not validate, or a second use of an id. */
export const SkippedEntry = z.object({ id: z.string().optional(), reason: z.string() });
export type SkippedEntryT = z.output<typeof SkippedEntry>;

/** Entries of an index beyond this are not read: a real index has tens. */
export const MAX_INDEX_ENTRIES = 2000;

/**
 * Reads a published index leniently where it can be lenient: each entry is validated on its
 * own, so one bad manifest costs that agent, not the whole registry; a duplicate id keeps the
 * first. The envelope (the version, the arrays) must be right or nothing is used.
 */
export function parseRegistryIndex(raw: unknown): { ok: true; index: RegistryIndexT; skipped: SkippedEntryT[] } | { ok: false; error: string } {
  const envelope = z
    .object({
      version: z.string().max(64).regex(/^\d+\.\d+\.\d+/),
      agents: z.array(z.unknown()).max(MAX_INDEX_ENTRIES),
      extensions: z.array(z.unknown()).max(MAX_INDEX_ENTRIES).optional(),
    })
    .safeParse(raw);
  if (!envelope.success) return { ok: false, error: `not a registry index: ${summariseIssues(envelope.error)}` };
  const skipped: SkippedEntryT[] = [];
  const seen = new Set<string>();
  const read = (entries: readonly unknown[]): RegistryManifestT[] => {
    const out: RegistryManifestT[] = [];
    for (const entry of entries) {
      const id = typeof entry === 'object' && entry !== null && typeof (entry as { id?: unknown }).id === 'string' ? String((entry as { id: string }).id).slice(0, 64) : undefined;
      const parsed = RegistryManifest.safeParse(entry);
      if (!parsed.success) {
        skipped.push({ ...(id ? { id } : {}), reason: summariseIssues(parsed.error) });
        continue;
      }
      if (seen.has(parsed.data.id)) {
        skipped.push({ id: parsed.data.id, reason: 'listed twice; the first entry is used' });
        continue;
      }
      seen.add(parsed.data.id);
      out.push(parsed.data);
    }
    return out;
  };
  const agents = read(envelope.data.agents);
  const extensions = read(envelope.data.extensions ?? []);
  return { ok: true, index: { version: envelope.data.version, agents, extensions }, skipped };
}

/** `path: message; …` for a person (at most a few issues). */
export function summariseIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message))
    .join('; ');
}

// ---------------------------------------------------------------------------------------------
// What the window is shown (the next phase's contract commands return these).

/** What a distribution needs on this machine, and whether it is there. */
export const RegistryNeed = z.object({
  /** `node` (npx), `uv` (uvx), `download` (a binary for this platform). */
  tool: z.enum(['node', 'uv', 'download']),
  satisfied: z.boolean(),
  /** For the person: where it was found, what to install, or where the download comes from. */
  detail: z.string(),
});
export type RegistryNeedT = z.output<typeof RegistryNeed>;

/** One way to add an entry here: its kind, what it needs, and the launch it would write. */
export const RegistryOption = z.object({
  kind: DistributionKind,
  need: RegistryNeed,
  /** The command and arguments as they would be stored (a binary's command is its future path). */
  command: z.string(),
  args: z.array(z.string()),
  /** The download's address (binary only). */
  archive: z.string().optional(),
});
export type RegistryOptionT = z.output<typeof RegistryOption>;

export const RegistrySource = z.enum(['network', 'cache', 'snapshot']);
export type RegistrySourceT = z.output<typeof RegistrySource>;

/** Where the bundled snapshot came from (`scripts/registry-snapshot.ts`). */
export const SnapshotOrigin = z.object({
  repository: z.string(),
  commit: z.string().regex(/^[0-9a-f]{40}$/),
  /** The commit's date (ISO 8601). */
  date: z.string(),
});
export type SnapshotOriginT = z.output<typeof SnapshotOrigin>;

export const RegistryEntryView = z.object({
  manifest: RegistryManifest,
  options: z.array(RegistryOption),
  /** The option Add uses unless the person picks another; absent when none fits this machine. */
  preferred: DistributionKind.optional(),
  /** Why it can't be added here (no build for this platform), when no option exists. */
  unavailable: z.string().optional(),
  /** Catalogue agents added from this entry. */
  addedAs: z.array(z.string()),
});
export type RegistryEntryViewT = z.output<typeof RegistryEntryView>;

/** A catalogue agent whose registry entry has a newer version than the one it runs. */
export const RegistryUpdate = z.object({
  agentId: z.string(),
  registryId: RegistryId,
  current: z.string(),
  latest: z.string(),
  pinned: z.boolean(),
});
export type RegistryUpdateT = z.output<typeof RegistryUpdate>;

export const RegistryListing = z.object({
  source: RegistrySource,
  /** When the index in use was fetched (cache, network); the snapshot's commit date otherwise. */
  asOf: z.string(),
  snapshot: SnapshotOrigin,
  /** Why the network was not used (offline, timeout, an invalid index), when it was not. */
  error: z.string().optional(),
  entries: z.array(RegistryEntryView),
  skipped: z.array(SkippedEntry),
  updates: z.array(RegistryUpdate),
});
export type RegistryListingT = z.output<typeof RegistryListing>;


/** Progress of a binary download and install, to the window that asked. */
export const RegistryInstallPhase = z.enum(['downloading', 'verifying', 'extracting', 'done']);
export const RegistryInstallProgress = z.object({
  registryId: z.string(),
  version: z.string(),
  phase: RegistryInstallPhase,
  bytes: z.number().int().nonnegative(),
  /** From Content-Length; absent when the server did not say. */
  total: z.number().int().nonnegative().optional(),
});
export type RegistryInstallProgressT = z.output<typeof RegistryInstallProgress>;

// Requests (for the contract).
export const ListRegistry = z.object({ refresh: z.boolean().optional() }).strict();
export const AddFromRegistry = z
  .object({
    registryId: RegistryId,
    /** The catalogue id; defaults to the registry id (suffixed when taken). */
    agentId: z.string().max(64).regex(/^[a-z0-9][a-z0-9._-]*$/i).optional(),
    kind: DistributionKind.optional(),
  })
  .strict();
export const PinRegistryAgent = z.object({ agentId: z.string().min(1), pinned: z.boolean() }).strict();
export const ByRegistryAgent = z.object({ agentId: z.string().min(1) }).strict();

/** A catalogue agent added, updated or rolled back from the registry: what it runs now. */
export const RegistryAgentChange = z.object({ agentId: z.string(), name: z.string(), info: RegistryAgentInfo });
export type RegistryAgentChangeT = z.output<typeof RegistryAgentChange>;
/** The index in use changed (a refresh): windows showing the registry list read it again. */
export const RegistryChanged = z.object({ source: RegistrySource, asOf: z.string() });

/** The bundled snapshot: the index as the registry's CI would publish it, and its source commit. */
export const RegistrySnapshot = z.object({ origin: SnapshotOrigin, index: RegistryIndex });
export type RegistrySnapshotT = z.output<typeof RegistrySnapshot>;
