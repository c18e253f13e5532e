/**
 * Regenerates the ACP registry snapshot Switchboard bundles (src/main/catalogue/registry/
 * snapshot.json) from a clone of github.com/agentclientprotocol/registry: a checkout or a bare
 * git directory. It reads the *committed* tree (default HEAD), so the snapshot always matches
 * one commit, recorded with its date.
 *
 *   git clone --bare https://github.com/agentclientprotocol/registry /tmp/acp-registry.git
 *   node --import tsx scripts/registry-snapshot.ts /tmp/acp-registry.git [--ref main] [--out file]
 *
 * It aggregates the entries as the registry's own CI does (.github/workflows/build_registry.py):
 * every top-level folder with an `agent.json` (agents) or `extension.json` (extensions), in
 * folder order, an icon pointed at the CDN when the folder has `icon.svg`; folders that can't
 * be an entry (`_not_yet_unsupported`, `.github`, `dist`) are not read. Every manifest must
 * pass Switchboard's schema (src/shared/registry.ts) and the registry's own rules (id = folder,
 * known platforms and distribution kinds, pinned package versions = the entry's version), or
 * nothing is written and each failure is listed. Only data is copied: no code of the registry.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { writeFileAtomicSync } from '../src/main/util/atomic-file';
import {
  DistributionKind,
  RegistryId,
  RegistryManifest,
  RegistryPlatform,
  RegistrySnapshot,
  summariseIssues,
  type RegistryManifestT,
  type RegistrySnapshotT,
} from '../src/shared/registry';

const REPOSITORY = 'agentclientprotocol/registry';
/** build_registry.py's REGISTRY_VERSION: the index format's version, not a release. */
const INDEX_VERSION = '1.0.0';
/** build_registry.py's DEFAULT_BASE_URL, where it publishes each entry's icon as `<id>.svg`. */
export const ICON_BASE = 'https://cdn.agentclientprotocol.com/registry/v1/latest';
export const DEFAULT_OUT = join(import.meta.dirname, '..', 'src', 'main', 'catalogue', 'registry', 'snapshot.json');

/** One top-level folder of the registry, as read from git. */
export interface RegistryFolder {
  name: string;
  agentJson?: string;
  extensionJson?: string;
  hasIcon: boolean;
}

function git(dir: string, args: string[]): string {
  return execFileSync('git', ['-C', dir, ...args], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' },
  });
}

/** The folders of `ref`'s tree that could hold an entry, with their manifests' text. */
export function readRegistryTree(dir: string, ref = 'HEAD'): { commit: string; date: string; folders: RegistryFolder[] } {
  const commit = git(dir, ['rev-parse', '--verify', `${ref}^{commit}`]).trim();
  const date = git(dir, ['show', '-s', '--format=%cI', commit]).trim();
  const folders: RegistryFolder[] = [];
  for (const line of git(dir, ['ls-tree', '-z', commit]).split('\0')) {
    const m = /^\d+ tree [0-9a-f]+\t(.+)$/.exec(line);
    // An entry's id must match its folder, and ids start with a letter: `_x`, `.github` hold none.
    if (!m || !RegistryId.safeParse(m[1]).success || m[1] === 'dist') continue;
    const name = m[1]!;
    const files = new Set(git(dir, ['ls-tree', '-z', '--name-only', commit, `${name}/`]).split('\0').filter(Boolean));
    const show = (file: string) => (files.has(`${name}/${file}`) ? git(dir, ['show', `${commit}:${name}/${file}`]) : undefined);
    const agentJson = show('agent.json');
    const extensionJson = show('extension.json');
    folders.push({ name, ...(agentJson !== undefined ? { agentJson } : {}), ...(extensionJson !== undefined ? { extensionJson } : {}), hasIcon: files.has(`${name}/icon.svg`) });
  }
  return { commit, date, folders };
}

/** The version a package spec pins (`@scope/x@1.2.3`, `x==1.2.3`, `x@1.2.3`), if any. */
function pinnedVersion(spec: string): string | undefined {
  return /^(?:@[^/]+\/)?[^@=]+(?:@|==)(.+)$/.exec(spec)?.[1];
}

/** The registry's own rules beyond the schema, for one parsed manifest and its raw JSON. */
function registryRules(raw: Record<string, unknown>, m: RegistryManifestT, folder: string): string[] {
  const errors: string[] = [];
  if (m.id !== folder) errors.push(`id "${m.id}" must match its folder "${folder}"`);
  const dist = (raw.distribution ?? {}) as Record<string, unknown>;
  for (const kind of Object.keys(dist)) if (!DistributionKind.safeParse(kind).success) errors.push(`unknown distribution "${kind}"`);
  const binary = (dist.binary ?? {}) as Record<string, unknown>;
  for (const platform of Object.keys(binary)) if (!RegistryPlatform.safeParse(platform).success) errors.push(`unknown platform "${platform}"`);
  for (const kind of ['npx', 'uvx'] as const) {
    const spec = m.distribution[kind]?.package;
    const pinned = spec && pinnedVersion(spec);
    if (pinned && pinned !== m.version) errors.push(`${kind} package ${spec} is not version ${m.version}`);
  }
  return errors;
}

function sortEnv(m: RegistryManifestT): RegistryManifestT {
  const sortRecord = (env: Record<string, string> | undefined) => env && Object.fromEntries(Object.entries(env).sort(([a], [b]) => (a < b ? -1 : 1)));
  const d = m.distribution;
  const binary = d.binary && Object.fromEntries(Object.entries(d.binary).map(([p, t]) => [p, { ...t, env: sortRecord(t.env) }]));
  return {
    ...m,
    distribution: {
      ...(binary ? { binary } : {}),
      ...(d.npx ? { npx: { ...d.npx, env: sortRecord(d.npx.env) } } : {}),
      ...(d.uvx ? { uvx: { ...d.uvx, env: sortRecord(d.uvx.env) } } : {}),
    },
  };
}

/**
 * The snapshot of the folders, or every reason it can't be made. Entries sorted by id, the
 * output of the schema (its key order), environment keys sorted: the same tree always gives
 * the same bytes.
 */
export function buildSnapshot(
  tree: { commit: string; date: string; folders: readonly RegistryFolder[] },
  iconBase = ICON_BASE,
): { ok: true; snapshot: RegistrySnapshotT } | { ok: false; errors: string[] } {
  const errors: string[] = [];
  const agents: RegistryManifestT[] = [];
  const extensions: RegistryManifestT[] = [];
  const seen = new Map<string, string>();
  for (const folder of tree.folders) {
    if (folder.agentJson !== undefined && folder.extensionJson !== undefined) {
      errors.push(`${folder.name}/: has both agent.json and extension.json`);
      continue;
    }
    const text = folder.agentJson ?? folder.extensionJson;
    if (text === undefined) continue;
    const file = `${folder.name}/${folder.agentJson !== undefined ? 'agent.json' : 'extension.json'}`;
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (err) {
      errors.push(`${file}: invalid JSON (${(err as Error).message})`);
      continue;
    }
    const parsed = RegistryManifest.safeParse(raw);
    if (!parsed.success) {
      errors.push(`${file}: ${summariseIssues(parsed.error)}`);
      continue;
    }
    const rules = registryRules(raw as Record<string, unknown>, parsed.data, folder.name);
    if (rules.length) {
      errors.push(...rules.map((e) => `${file}: ${e}`));
      continue;
    }
    if (seen.has(parsed.data.id)) {
      errors.push(`${file}: id "${parsed.data.id}" is already used by ${seen.get(parsed.data.id)}`);
      continue;
    }
    seen.set(parsed.data.id, file);
    const entry = sortEnv(folder.hasIcon ? { ...parsed.data, icon: `${iconBase}/${parsed.data.id}.svg` } : parsed.data);
    (folder.agentJson !== undefined ? agents : extensions).push(entry);
  }
  if (errors.length) return { ok: false, errors };
  const byId = (a: RegistryManifestT, b: RegistryManifestT) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  const snapshot = RegistrySnapshot.parse({
    origin: { repository: REPOSITORY, commit: tree.commit, date: tree.date },
    index: { version: INDEX_VERSION, agents: agents.sort(byId), extensions: extensions.sort(byId) },
  });
  return { ok: true, snapshot };
}

export function snapshotText(snapshot: RegistrySnapshotT): string {
  return `${JSON.stringify(snapshot, null, 2)}\n`;
}

function main(argv: string[]): void {
  const option = (name: string): string | undefined => {
    const at = argv.indexOf(`--${name}`);
    return at === -1 ? undefined : argv[at + 1];
  };
  const dir = argv.find((a, i) => !a.startsWith('--') && !argv[i - 1]?.startsWith('--'));
  if (!dir) throw new Error('usage: node --import tsx scripts/registry-snapshot.ts <registry checkout or git dir> [--ref REF] [--out FILE]');
  const out = option('out') ?? DEFAULT_OUT;
  const result = buildSnapshot(readRegistryTree(dir, option('ref') ?? 'HEAD'));
  if (!result.ok) throw new Error(`the registry does not validate; nothing written:\n  ${result.errors.join('\n  ')}`);
  writeFileAtomicSync(out, snapshotText(result.snapshot));
  const { origin, index } = result.snapshot;
  process.stdout.write(`${out}: ${index.agents.length} agents, ${index.extensions.length} extensions from ${origin.repository}@${origin.commit.slice(0, 12)} (${origin.date})\n`);
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  try {
    main(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`registry-snapshot: ${(err as Error).message}\n`);
    process.exit(1);
  }
}
