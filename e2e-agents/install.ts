/**
 * `npm run test:agents`, step one: installs every agent of `e2e-agents/agents.json` from the
 * npm registry into the cache folder, one folder per agent and version, reusing what a
 * previous run installed and verified. Any install that fails fails the run, loudly: a suite
 * that quietly tested fewer agents (or none, with the registry unreachable) would prove nothing.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cacheRoot, installDir, isInstalled, launchScript, packageDir, readManifest, writeStampText, type PinnedAgent } from './support/manifest';

const INSTALL_TIMEOUT_MS = 6 * 60_000;

function run(command: string, args: string[], cwd: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, npm_config_update_notifier: 'false' } });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => {
      output += `\n(killed after ${INSTALL_TIMEOUT_MS / 1000} s)`;
      child.kill('SIGKILL');
    }, INSTALL_TIMEOUT_MS);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

async function install(agent: PinnedAgent): Promise<void> {
  const dir = installDir(agent);
  // A half-finished earlier attempt is thrown away, not trusted.
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: `switchboard-interop-${agent.id}`, private: true, dependencies: { [agent.package]: agent.version } }, null, 2)}\n`,
  );
  const started = Date.now();
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const { code, output } = await run(npm, ['install', '--no-audit', '--no-fund', '--loglevel=error', '--omit=dev'], dir);
  if (code !== 0) {
    const tail = output.trim().split('\n').slice(-25).join('\n');
    const hint = /postinstall|install script|ENOTFOUND|ECONNREFUSED|ETIMEDOUT|EAI_AGAIN/i.test(output)
      ? '\n(an install script that downloads from outside npm, or no route to the npm registry)'
      : '';
    throw new Error(`npm install ${agent.package}@${agent.version} failed with code ${code}${hint}:\n${tail}`);
  }
  const installed = JSON.parse(readFileSync(join(packageDir(agent), 'package.json'), 'utf8')) as { version: string };
  if (installed.version !== agent.version) throw new Error(`${agent.package}: wanted ${agent.version}, npm installed ${installed.version}`);
  launchScript(agent); // throws when the bin named in the manifest is missing
  const stamp = writeStampText(agent);
  writeFileSync(stamp.file, stamp.text);
  console.log(`agents: installed ${agent.package}@${agent.version} in ${Math.round((Date.now() - started) / 1000)} s`);
}

const manifest = readManifest();
mkdirSync(cacheRoot(), { recursive: true });
const failures: string[] = [];
for (const agent of manifest.agents) {
  if (isInstalled(agent)) {
    console.log(`agents: ${agent.package}@${agent.version} already in ${installDir(agent)}`);
    continue;
  }
  try {
    await install(agent);
  } catch (err) {
    failures.push((err as Error).message);
  }
}
if (failures.length > 0) {
  console.error(`\nagents: ${failures.length} of ${manifest.agents.length} agent installs failed; the interop suite cannot run.\n`);
  for (const f of failures) console.error(`${f}\n`);
  process.exit(1);
}
