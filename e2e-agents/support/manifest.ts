import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';

export const ROOT = resolve(import.meta.dirname, '../..');

/** One real agent the suite installs from the npm registry, pinned to an exact version. */
const PinnedAgent = z
  .object({
    id: z.string().regex(/^[a-z0-9][a-z0-9._-]*$/),
    name: z.string().min(1),
    package: z.string().min(1),
    version: z.string().regex(/^\d+\.\d+\.\d+$/, 'pin an exact version'),
    /** The package's own bin name … */
    bin: z.string().optional(),
    /** … or a script inside the package, run with node. */
    entry: z.string().optional(),
    args: z.array(z.string()).default([]),
    env: z.record(z.string(), z.string()).default({}),
    /** Offline and signed out: session/new succeeds, or is refused with `signInError`. */
    withoutAccount: z.enum(['session', 'sign-in']),
    signInError: z.string().optional(),
    /** Signed out, yet session/new succeeds: the first prompt is refused with this. */
    promptRefusal: z.string().optional(),
    /** The names of the sign-in methods its initialize answer lists. */
    authMethods: z.array(z.string()).default([]),
  })
  .refine((a) => !!a.bin !== !!a.entry, 'give exactly one of bin or entry')
  .refine((a) => (a.withoutAccount === 'sign-in') === !!a.signInError, 'a sign-in agent names its signInError');
export type PinnedAgent = z.output<typeof PinnedAgent>;

const Manifest = z.object({
  agents: z.array(PinnedAgent).min(1),
  dropped: z.array(z.object({ package: z.string(), version: z.string(), why: z.string() })).default([]),
});

export function readManifest(): z.output<typeof Manifest> {
  return Manifest.parse(JSON.parse(readFileSync(join(ROOT, 'e2e-agents/agents.json'), 'utf8')));
}

/** Where installs live: `$SWITCHBOARD_AGENTS_CACHE`, else `.agents-cache/` in the repo (gitignored). */
export const cacheRoot = (): string => resolve(process.env.SWITCHBOARD_AGENTS_CACHE ?? join(ROOT, '.agents-cache'));

/** One folder per agent and version, so a version bump installs beside the old one. */
export const installDir = (agent: PinnedAgent): string => join(cacheRoot(), `${agent.id}@${agent.version}`);

const stampFile = (agent: PinnedAgent): string => join(installDir(agent), 'installed.json');

/** The stamp says which package and version were installed and verified there. */
export function isInstalled(agent: PinnedAgent): boolean {
  if (!existsSync(stampFile(agent))) return false;
  const stamp = JSON.parse(readFileSync(stampFile(agent), 'utf8')) as { package?: string; version?: string };
  return stamp.package === agent.package && stamp.version === agent.version && existsSync(launchScript(agent));
}

export function writeStampText(agent: PinnedAgent): { file: string; text: string } {
  return { file: stampFile(agent), text: `${JSON.stringify({ package: agent.package, version: agent.version }, null, 2)}\n` };
}

export const packageDir = (agent: PinnedAgent): string => join(installDir(agent), 'node_modules', agent.package);

/** The JavaScript file that starts the agent (its bin's target, or `entry`). */
export function launchScript(agent: PinnedAgent): string {
  if (agent.entry) return join(packageDir(agent), agent.entry);
  const pkgFile = join(packageDir(agent), 'package.json');
  if (!existsSync(pkgFile)) return join(packageDir(agent), '<not installed>');
  const pkg = JSON.parse(readFileSync(pkgFile, 'utf8')) as { bin?: string | Record<string, string> };
  const target = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin?.[agent.bin!];
  if (!target) throw new Error(`${agent.package}@${agent.version} has no bin named ${agent.bin}`);
  return join(packageDir(agent), target);
}

/** The `agents.json` entry for Switchboard: node runs the installed script directly, no npx. */
export function agentEntry(agent: PinnedAgent, env: Record<string, string> = {}) {
  return {
    id: agent.id,
    name: agent.name,
    command: process.execPath,
    args: [launchScript(agent), ...agent.args],
    env: { ...agent.env, ...env },
  };
}
