/**
 * The app's binary started as one of its own helpers (`util/own-process.ts`): the role is read
 * from the command line before anything of the app runs, and the helper's built script runs in
 * its place with a command line of its own, as if Node had started it.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { OWN_ROLES, ROLE_FLAG, type OwnRole } from '../util/own-process';

/** Each role's script, built beside the app's entry (electron.vite.config.ts). */
export const ROLE_SCRIPTS: Readonly<Record<OwnRole, string>> = { watchdog: 'watchdog.js', 'demo-agent': 'demo-agent.js', 'git-runner': 'git-runner.js' };

export interface RoleRun {
  role: OwnRole;
  /** The helper's own arguments: everything after the role. */
  args: string[];
}

export class UnknownRoleError extends Error {}

/** The role this process was started in, or undefined for the app itself. */
export function roleOf(argv: readonly string[]): RoleRun | undefined {
  const at = argv.findIndex((a) => a === ROLE_FLAG || a.startsWith(`${ROLE_FLAG}=`));
  if (at === -1) return undefined;
  const flag = argv[at]!;
  const inline = flag.includes('=');
  const name = inline ? flag.slice(flag.indexOf('=') + 1) : argv[at + 1];
  const role = OWN_ROLES.find((r) => r === name);
  if (!role) throw new UnknownRoleError(`unknown ${ROLE_FLAG} ${JSON.stringify(name ?? '')} (one of ${OWN_ROLES.join(', ')})`);
  return { role, args: argv.slice(at + (inline ? 1 : 2)) };
}

/** The scripts of the roles in `dir` (the folder of the built entry). */
export const roleScriptsIn = (dir: string): Record<OwnRole, string> =>
  Object.fromEntries(OWN_ROLES.map((r) => [r, join(dir, ROLE_SCRIPTS[r])])) as Record<OwnRole, string>;

/**
 * Runs the role's script in this process. Its `process.argv` is what Node would have given
 * it (`[execPath, script, ...args]`): the scripts read their options from there.
 */
export async function runRole(run: RoleRun, scripts: Readonly<Record<OwnRole, string>>): Promise<void> {
  const script = scripts[run.role];
  process.argv = [process.execPath, script, ...run.args];
  await import(pathToFileURL(script).href);
}
