import type { AgentPresetViewT } from '../../shared/catalogue';
import type { AgentDetector } from './agent-detection';

/**
 * Well-known ACP agents and how each starts. npm packages, versions and bin names were checked
 * with `npm view <pkg> name version bin` (2026-11-26); the `npx` forms pin that version, so
 * what a preset starts does not change under the person's feet.
 */
export interface NpmPackage {
  package: string;
  version: string;
  bin: string;
}

export interface AgentPreset {
  id: string;
  name: string;
  description: string;
  /** Arguments that put the agent in ACP mode. */
  acpArgs: readonly string[];
  /** The command on PATH, when the agent installs one. */
  pathCommand?: string;
  npm?: NpmPackage;
  install: string;
  homepage: string;
  envHints: readonly { name: string; secret: boolean; description: string }[];
  hints: readonly string[];
}

/** Agents that refuse to run as root unless told they are sandboxed. */
export const ROOT_SANDBOX_HINT =
  'Running as root? Claude Code refuses to start as root unless IS_SANDBOX=1 is in its environment: add it below if this machine is a sandbox.';

const ANTHROPIC_KEY = { name: 'ANTHROPIC_API_KEY', secret: true, description: 'Anthropic API key (or sign in with the claude CLI)' };
const OPENAI_KEY = { name: 'OPENAI_API_KEY', secret: true, description: 'OpenAI API key (or sign in with codex login)' };

export const AGENT_PRESETS: readonly AgentPreset[] = [
  {
    id: 'gemini',
    name: 'Gemini CLI',
    description: "Google's Gemini CLI in ACP mode.",
    acpArgs: ['--acp'],
    pathCommand: 'gemini',
    npm: { package: '@google/gemini-cli', version: '0.61.0', bin: 'gemini' },
    install: 'npm install -g @google/gemini-cli',
    homepage: 'https://github.com/google-gemini/gemini-cli',
    envHints: [{ name: 'GEMINI_API_KEY', secret: true, description: 'Gemini API key (or sign in with Google)' }],
    hints: [],
  },
  {
    id: 'qwen',
    name: 'Qwen Code',
    description: 'Qwen Code in ACP mode; also talks to any OpenAI-compatible server.',
    acpArgs: ['--acp'],
    pathCommand: 'qwen',
    npm: { package: '@qwen-code/qwen-code', version: '0.24.4', bin: 'qwen' },
    install: 'npm install -g @qwen-code/qwen-code',
    homepage: 'https://github.com/QwenLM/qwen-code',
    envHints: [
      { name: 'OPENAI_API_KEY', secret: true, description: 'API key of the OpenAI-compatible server' },
      { name: 'OPENAI_BASE_URL', secret: false, description: 'Base URL of the OpenAI-compatible server' },
      { name: 'OPENAI_MODEL', secret: false, description: 'Model name' },
    ],
    hints: [],
  },
  {
    id: 'claude',
    name: 'Claude (ACP adapter)',
    description: 'Claude Code through the ACP org adapter.',
    acpArgs: [],
    pathCommand: 'claude-agent-acp',
    npm: { package: '@agentclientprotocol/claude-agent-acp', version: '0.101.0', bin: 'claude-agent-acp' },
    install: 'npm install -g @agentclientprotocol/claude-agent-acp',
    homepage: 'https://github.com/agentclientprotocol/claude-agent-acp',
    envHints: [ANTHROPIC_KEY],
    hints: [ROOT_SANDBOX_HINT],
  },
  {
    id: 'claude-zed',
    name: 'Claude Code (Zed adapter)',
    description: "Claude Code through Zed's earlier adapter.",
    acpArgs: [],
    pathCommand: 'claude-code-acp',
    npm: { package: '@zed-industries/claude-code-acp', version: '0.16.2', bin: 'claude-code-acp' },
    install: 'npm install -g @zed-industries/claude-code-acp',
    homepage: 'https://github.com/zed-industries/claude-code-acp',
    envHints: [ANTHROPIC_KEY],
    hints: [ROOT_SANDBOX_HINT],
  },
  {
    id: 'codex',
    name: 'Codex (ACP adapter)',
    description: 'OpenAI Codex through the ACP org adapter.',
    acpArgs: [],
    pathCommand: 'codex-acp',
    npm: { package: '@agentclientprotocol/codex-acp', version: '2.6.0', bin: 'codex-acp' },
    install: 'npm install -g @agentclientprotocol/codex-acp',
    homepage: 'https://github.com/agentclientprotocol/codex-acp',
    envHints: [OPENAI_KEY],
    hints: [],
  },
  {
    id: 'codex-zed',
    name: 'Codex (Zed adapter)',
    description: "OpenAI Codex through Zed's earlier adapter.",
    acpArgs: [],
    npm: { package: '@zed-industries/codex-acp', version: '0.16.0', bin: 'codex-acp' },
    install: 'npx -y @zed-industries/codex-acp@0.16.0',
    homepage: 'https://github.com/zed-industries/codex-acp',
    envHints: [OPENAI_KEY],
    hints: [],
  },
  {
    id: 'copilot',
    name: 'GitHub Copilot CLI',
    description: 'GitHub Copilot CLI in ACP mode.',
    acpArgs: ['--acp'],
    pathCommand: 'copilot',
    npm: { package: '@github/copilot', version: '1.0.102', bin: 'copilot' },
    install: 'npm install -g @github/copilot',
    homepage: 'https://github.com/github/copilot-cli',
    envHints: [{ name: 'GH_TOKEN', secret: true, description: 'GitHub token with Copilot access (or run copilot and /login)' }],
    hints: [],
  },
  {
    id: 'opencode',
    name: 'opencode',
    description: 'opencode in ACP mode. Its errors go to its own log file, not to stderr.',
    acpArgs: ['acp'],
    pathCommand: 'opencode',
    npm: { package: 'opencode-ai', version: '1.18.33', bin: 'opencode' },
    install: 'npm install -g opencode-ai',
    homepage: 'https://opencode.ai',
    envHints: [],
    hints: ['opencode logs its errors to ~/.local/share/opencode/log, not to stderr.'],
  },
  {
    id: 'goose',
    name: 'Goose',
    description: "Block's Goose in ACP mode (not on npm).",
    acpArgs: ['acp'],
    pathCommand: 'goose',
    install: 'See https://block.github.io/goose/docs/getting-started/installation',
    homepage: 'https://block.github.io/goose',
    envHints: [],
    hints: [],
  },
  // Listed by the ACP registry (cdn.agentclientprotocol.com/registry) with an npx distribution.
  {
    id: 'cline',
    name: 'Cline',
    description: 'The Cline coding agent CLI in ACP mode (ACP registry).',
    acpArgs: ['--acp'],
    pathCommand: 'cline',
    npm: { package: 'cline', version: '3.0.65', bin: 'cline' },
    install: 'npm install -g cline',
    homepage: 'https://cline.bot',
    envHints: [],
    hints: [],
  },
  {
    id: 'auggie',
    name: 'Auggie CLI',
    description: "Augment Code's agent CLI in ACP mode (ACP registry).",
    acpArgs: ['--acp'],
    pathCommand: 'auggie',
    npm: { package: '@augmentcode/auggie', version: '0.36.0', bin: 'auggie' },
    install: 'npm install -g @augmentcode/auggie',
    homepage: 'https://www.augmentcode.com',
    envHints: [],
    hints: [],
  },
  {
    id: 'pi',
    name: 'pi (pi-acp)',
    description: 'The pi coding agent through the pi-acp adapter.',
    acpArgs: [],
    pathCommand: 'pi-acp',
    npm: { package: 'pi-acp', version: '0.0.34', bin: 'pi-acp' },
    install: 'npm install -g pi-acp',
    homepage: 'https://www.npmjs.com/package/pi-acp',
    envHints: [],
    hints: [],
  },
];

export interface PresetLaunchSpec {
  kind: 'path' | 'npx';
  command: string;
  args: string[];
}

/** The ways a preset starts, the command on PATH first (it needs no network). */
export function presetLaunches(p: AgentPreset): PresetLaunchSpec[] {
  const out: PresetLaunchSpec[] = [];
  if (p.pathCommand) out.push({ kind: 'path', command: p.pathCommand, args: [...p.acpArgs] });
  if (p.npm) out.push({ kind: 'npx', command: 'npx', args: ['-y', `${p.npm.package}@${p.npm.version}`, ...p.acpArgs] });
  return out;
}

/**
 * The presets with whether each launch can start here (see `Availability`); `refresh` looks
 * again (the person installed one meanwhile) instead of answering from what was found before.
 */
export async function presetViews(detector: AgentDetector, refresh = false): Promise<AgentPresetViewT[]> {
  if (refresh) detector.refresh();
  return Promise.all(
    AGENT_PRESETS.map(async (p) => ({
      id: p.id,
      name: p.name,
      description: p.description,
      ...(p.npm ? { npm: { ...p.npm } } : {}),
      install: p.install,
      homepage: p.homepage,
      launches: await Promise.all(presetLaunches(p).map(async (l) => ({ ...l, availability: await detector.check(l.command, l.args) }))),
      envHints: p.envHints.map((e) => ({ ...e })),
      hints: [...p.hints],
    })),
  );
}
