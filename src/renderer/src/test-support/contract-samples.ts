import type { PermissionViewT, SessionEventT, SessionViewT, SwitchResultT } from '../../../shared/contract';

/**
 * What a host really sends, shaped as a busy coding session: mostly streamed message chunks,
 * tool calls with commands, output and diffs, a plan, a turn's usage. The contract check's
 * tests (a good answer passes unchanged) and its cost measurement (bench/contract-check.ts)
 * both use these.
 */

const SESSION = '0b8f2c1e-5d4a-4e3b-9c2d-7a6b5c4d3e2f';

const words = 'the window checks every answer and event against the contract where it arrives so a host bug names its field'.split(' ');

/** `n` words of prose, deterministic. */
function prose(n: number, seed: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(words[(seed * 7 + i * 13) % words.length] ?? 'word');
  return out.join(' ');
}

/** A source file of about `lines` lines. */
function sourceText(lines: number, seed: number): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) out.push(`  const value${i} = compute(${seed + i}, '${prose(4, seed + i)}');`);
  return out.join('\n');
}

export function sampleView(over: Partial<SessionViewT> = {}): SessionViewT {
  return {
    id: SESSION,
    agentId: 'claude',
    cwd: '/home/dev/projects/switchboard',
    title: 'Validate answers at the boundary',
    state: 'ACTIVE',
    running: true,
    pendingPermissions: 1,
    pendingQuestions: 0,
    lastSeq: 1_200,
    createdAt: 1_750_000_000_000,
    updatedAt: 1_750_000_360_000,
    lastActivityAt: 1_750_000_360_000,
    turnStartedAt: 1_750_000_300_000,
    lastAgentActivityAt: 1_750_000_359_000,
    promptCapabilities: { image: true, embeddedContext: true },
    additionalDirs: ['/home/dev/projects/shared-lib'],
    ...over,
  };
}

function permission(seq: number): PermissionViewT {
  return {
    requestId: `perm-${seq}`,
    sessionId: SESSION,
    toolCall: {
      toolCallId: `call-${seq}`,
      title: 'Edit src/renderer/src/api/contract-check.ts',
      kind: 'edit',
      status: 'pending',
      locations: [{ path: '/home/dev/projects/switchboard/src/renderer/src/api/contract-check.ts', line: 42 }],
      content: [{ type: 'diff', path: 'src/renderer/src/api/contract-check.ts', oldText: sourceText(30, seq), newText: sourceText(32, seq + 1) }],
    },
    options: [
      { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
      { optionId: 'always', name: 'Always allow', kind: 'allow_always' },
      { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
    ],
    createdAt: 1_750_000_350_000,
  };
}

/** One turn as an agent streams it, from `seq` on: about 100 events, nine in ten of them chunks. */
export function sampleTurn(seq: number): SessionEventT[] {
  const at = 1_750_000_000_000 + seq * 50;
  const out: SessionEventT[] = [];
  const push = (e: Omit<SessionEventT, 'sessionId' | 'seq' | 'at'>): void => {
    out.push({ sessionId: SESSION, seq: seq + out.length, at: at + out.length * 50, ...e } as SessionEventT);
  };
  const prompt = `c0ffee00-0000-4000-8000-${String(seq).padStart(12, '0')}`;
  push({ kind: 'user_message', payload: { text: prose(40, seq), clientMessageId: prompt } });
  push({ kind: 'turn_started', payload: { clientMessageId: prompt } });
  for (let i = 0; i < 12; i++) push({ kind: 'agent_thought', payload: { text: ` ${prose(6, seq + i)}`, messageId: `thought-${seq}` } });
  for (let i = 0; i < 40; i++) push({ kind: 'agent_message', payload: { text: ` ${prose(7, seq + i)}`, messageId: `msg-${seq}` } });
  push({
    kind: 'plan',
    payload: {
      entries: [
        { content: 'Read the transports', priority: 'high', status: 'completed' },
        { content: 'Check answers where they arrive', priority: 'high', status: 'in_progress' },
        { content: 'Measure the cost', priority: 'medium', status: 'pending' },
      ],
    },
  });
  push({
    kind: 'tool_call',
    payload: {
      toolCallId: `run-${seq}`,
      title: 'Run npx vitest run src/renderer',
      kind: 'execute',
      status: 'pending',
      rawInput: { command: 'npx vitest run src/renderer --maxWorkers=2', timeout: 120000 },
      content: [{ type: 'terminal', terminalId: `term-${seq}` }],
    },
  });
  push({ kind: 'tool_call_update', payload: { toolCallId: `run-${seq}`, status: 'in_progress' } });
  push({
    kind: 'tool_call_update',
    payload: {
      toolCallId: `run-${seq}`,
      status: 'completed',
      content: [{ type: 'content', content: { type: 'text', text: sourceText(25, seq) } }],
      rawOutput: { exitCode: 0, stdout: sourceText(10, seq) },
    },
  });
  push({
    kind: 'tool_call',
    payload: {
      toolCallId: `edit-${seq}`,
      title: 'Edit src/renderer/src/api/contract-check.ts',
      kind: 'edit',
      status: 'completed',
      locations: [{ path: '/home/dev/projects/switchboard/src/renderer/src/api/contract-check.ts', line: 12 }],
      content: [{ type: 'diff', path: 'src/renderer/src/api/contract-check.ts', oldText: sourceText(40, seq), newText: sourceText(42, seq + 3) }],
    },
  });
  for (let i = 0; i < 40; i++) push({ kind: 'agent_message', payload: { text: ` ${prose(7, seq + 100 + i)}`, messageId: `msg2-${seq}` } });
  push({
    kind: 'turn_ended',
    payload: {
      stopReason: 'end_turn',
      clientMessageId: prompt,
      usage: { tokens: { inputTokens: 48_000, outputTokens: 2_100, totalTokens: 50_100, cachedReadTokens: 40_000 }, cost: { amount: 0.21, currency: 'USD' } },
    },
  });
  return out;
}

/** `count` events of back-to-back turns from seq 1. */
export function sampleEvents(count: number): SessionEventT[] {
  const out: SessionEventT[] = [];
  while (out.length < count) out.push(...sampleTurn(out.length + 1));
  return out.slice(0, count);
}

/** A `sessions:switch` answer for a session mid-turn with a request waiting and full header controls. */
export function sampleSwitch(): SwitchResultT {
  return {
    session: sampleView(),
    running: true,
    lastSeq: 1_200,
    pendingPermissions: [permission(1_190)],
    pendingQuestions: [],
    availableCommands: Array.from({ length: 30 }, (_, i) => ({
      name: `command-${i}`,
      description: prose(10, i),
      ...(i % 3 === 0 ? { input: { hint: 'what to do' } } : {}),
    })),
    controls: {
      rev: 12,
      modes: {
        currentModeId: 'default',
        availableModes: [
          { id: 'default', name: 'Default', description: 'Asks before edits and commands' },
          { id: 'acceptEdits', name: 'Accept edits', description: 'Edits without asking' },
          { id: 'plan', name: 'Plan', description: 'Plans without acting' },
          { id: 'bypassPermissions', name: 'Bypass permissions', description: 'Runs every tool without asking' },
        ],
      },
      models: {
        currentModelId: 'sonnet',
        availableModels: [
          { modelId: 'sonnet', name: 'Sonnet' },
          { modelId: 'opus', name: 'Opus', description: 'Slower, stronger' },
          { modelId: 'haiku', name: 'Haiku' },
        ],
      },
      configOptions: [
        {
          id: 'thought_level',
          name: 'Thinking',
          type: 'select',
          category: 'thought_level',
          currentValue: 'medium',
          options: [
            { value: 'low', name: 'Low' },
            { value: 'medium', name: 'Medium' },
            { value: 'high', name: 'High' },
          ],
        },
        { id: 'verbose', name: 'Verbose tool output', type: 'boolean', currentValue: false },
      ],
      usage: { context: { used: 48_000, size: 200_000 }, cost: { amount: 1.37, currency: 'USD' }, tokens: { inputTokens: 310_000, outputTokens: 12_400, totalTokens: 322_400 } },
    },
  };
}
