/**
 * The layer table (eslint.layers.js, docs/architecture.md "Layers") through the project's real
 * ESLint config: a wrong import in each direction is reported, an allowed one is not.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');

// The fixtures are not files on disk, so no TypeScript project holds them: type-aware parsing
// is switched off and only the rule under test runs. The rest is the real config.
const eslint = new ESLint({
  cwd: root,
  overrideConfigFile: join(root, 'eslint.config.js'),
  overrideConfig: tseslint.configs.disableTypeChecked,
  ruleFilter: ({ ruleId }) => ruleId === 'no-restricted-imports',
});

/** The restricted-import messages ESLint gives `source` as the file `file` (relative to the root). */
async function restricted(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${source}\nexport const used = x;\n`, { filePath: join(root, file) });
  return (result?.messages ?? []).map((m) => `${m.ruleId ?? 'fatal'}: ${m.message}`);
}

const value = (from: string) => `import { x } from '${from}';`;
const typeOnly = (from: string) => `import type { x } from '${from}';`;

/** [file, import, why] — each must be reported. */
const wrong: [string, string, string][] = [
  // renderer ↛ main, agents, preload, electron, Node
  ['src/renderer/src/store/app-store.ts', value('../../../main/host/session-host'), 'renderer → main'],
  ['src/renderer/src/store/app-store.ts', value('../../../agents/demo/options'), 'renderer → agents'],
  ['src/renderer/src/app.tsx', value('../../preload/index'), 'renderer → preload'],
  ['src/renderer/src/api/get-api.ts', value('electron'), 'renderer → electron'],
  ['src/renderer/src/lib/diff.ts', value('node:path'), 'renderer → Node'],
  // main ↛ renderer, preload, agents
  ['src/main/host/session-host.ts', value('../../renderer/src/store/app-store'), 'main → renderer'],
  ['src/main/app/windows.ts', value('../../preload/index'), 'main → preload'],
  ['src/main/brokers/broker.ts', value('../../agents/demo/options'), 'main → agents'],
  // host ↛ transport, app, cli
  ['src/main/host/session-host.ts', value('../transport/ws-server'), 'host → transport'],
  ['src/main/host/session-host.ts', value('../app/windows'), 'host → app'],
  ['src/main/host/session-host.ts', value('../cli/parse-args'), 'host → cli folder'],
  ['src/main/host/session-host.ts', value('../cli'), 'host → cli.ts'],
  // catalogue ↛ host, datadir, workspace, permissions, transport, app
  ['src/main/catalogue/agent-catalogue.ts', value('../host/session-host'), 'catalogue → host'],
  ['src/main/catalogue/agent-catalogue.ts', value('../datadir/paths'), 'catalogue → datadir'],
  ['src/main/catalogue/agent-catalogue.ts', value('../permissions/permission-gate'), 'catalogue → permissions'],
  ['src/main/catalogue/agent-catalogue.ts', value('../app/main'), 'catalogue → app'],
  // datadir ↛ sessions, brokers, catalogue, host
  ['src/main/datadir/settings.ts', value('../sessions/session-service'), 'datadir → sessions'],
  ['src/main/datadir/settings.ts', value('../brokers/broker'), 'datadir → brokers'],
  ['src/main/datadir/settings.ts', value('../catalogue/agent-catalogue'), 'datadir → catalogue'],
  ['src/main/datadir/settings.ts', value('../host/session-host'), 'datadir → host'],
  // workspace ↛ sessions, brokers, catalogue, host (sessions ask it; it never knows them)
  ['src/main/workspace/folders.ts', value('../sessions/session-service'), 'workspace → sessions'],
  ['src/main/workspace/folders.ts', value('../brokers/broker'), 'workspace → brokers'],
  ['src/main/workspace/folders.ts', value('../catalogue/agent-catalogue'), 'workspace → catalogue'],
  ['src/main/workspace/folders.ts', value('../host/session-host'), 'workspace → host'],
  // sessions ↛ host, transport, app, reaper
  ['src/main/sessions/session-service.ts', value('../host/session-host'), 'sessions → host'],
  ['src/main/sessions/session-service.ts', value('../catalogue/agent-catalogue'), 'sessions → catalogue'],
  ['src/main/sessions/session-service.ts', value('../datadir/paths'), 'sessions → datadir'],
  ['src/main/sessions/session-service.ts', value('../transport/ws-server'), 'sessions → transport'],
  ['src/main/sessions/session-service.ts', value('../app/main'), 'sessions → app'],
  ['src/main/sessions/session-service.ts', value('../reaper/idle-reaper'), 'sessions → reaper'],
  // brokers ↛ sessions, host, permissions, reaper, transport
  ['src/main/brokers/broker.ts', value('../sessions/live-session'), 'brokers → sessions'],
  ['src/main/brokers/broker-pool.ts', value('../host/session-host'), 'brokers → host'],
  ['src/main/brokers/broker-pool.ts', value('../catalogue/demo-agent'), 'brokers → catalogue'],
  ['src/main/brokers/broker-pool.ts', value('../workspace/folders'), 'brokers → workspace'],
  ['src/main/brokers/broker.ts', value('../permissions/permission-gate'), 'brokers → permissions'],
  ['src/main/brokers/broker.ts', value('../reaper/idle-reaper'), 'brokers → reaper'],
  ['src/main/brokers/broker.ts', value('../transport/window-sender'), 'brokers → transport'],
  // permissions ↛ sessions, brokers, reaper, host
  ['src/main/permissions/permission-gate.ts', value('../sessions/watchers'), 'permissions → sessions'],
  ['src/main/permissions/permission-gate.ts', value('../brokers/broker'), 'permissions → brokers'],
  ['src/main/permissions/permission-gate.ts', value('../reaper/idle-reaper'), 'permissions → reaper'],
  ['src/main/permissions/permission-gate.ts', value('../host/session-host'), 'permissions → host'],
  // reaper ↛ sessions, store, brokers, permissions, host
  ['src/main/reaper/idle-reaper.ts', value('../sessions/session-service'), 'reaper → sessions'],
  ['src/main/reaper/idle-reaper.ts', value('../store/store'), 'reaper → store'],
  ['src/main/reaper/idle-reaper.ts', value('../brokers/broker-pool'), 'reaper → brokers'],
  ['src/main/reaper/idle-reaper.ts', value('../permissions/permission-gate'), 'reaper → permissions'],
  ['src/main/reaper/idle-reaper.ts', value('../host/session-host'), 'reaper → host'],
  // store ↛ every service above it
  ['src/main/store/event-log.ts', value('../sessions/state-machine'), 'store → sessions'],
  ['src/main/store/event-log.ts', value('../brokers/broker'), 'store → brokers'],
  ['src/main/store/event-log.ts', value('../permissions/permission-gate'), 'store → permissions'],
  ['src/main/store/event-log.ts', value('../reaper/idle-reaper'), 'store → reaper'],
  ['src/main/store/event-log.ts', value('../host/session-host'), 'store → host'],
  ['src/main/store/migrations/index.ts', value('../../transport/ws-server'), 'store → transport'],
  ['src/main/store/event-log.ts', value('../app/main'), 'store → app'],
  // util ↛ everything in main
  ['src/main/util/timer-queue.ts', value('../store/store'), 'util → store'],
  // transport ↛ the host behind its port, the services, the app
  ['src/main/transport/ws-server.ts', value('../host/session-host'), 'transport → host internals'],
  ['src/main/transport/ws-server.ts', value('../host/handlers'), 'transport → host handlers'],
  ['src/main/transport/ws-server.ts', value('../sessions/session-service'), 'transport → sessions'],
  ['src/main/transport/ws-server.ts', value('../store/store'), 'transport → store'],
  ['src/main/transport/electron-ipc.ts', value('../app/windows'), 'transport → app'],
  // app ↛ the services below the host; cli ↛ transport
  ['src/main/app/main.ts', value('../sessions/session-service'), 'app → sessions'],
  ['src/main/app/main.ts', value('../store/store'), 'app → store'],
  ['src/main/app/safe-storage-box.ts', value('../catalogue/secret-box'), 'app → catalogue values'],
  ['src/main/app/folder-picker.ts', value('../workspace/folders'), 'app → workspace values'],
  ['src/main/cli/parse-args.ts', value('../transport/ws-server'), 'cli folder → transport'],
  // electron: only app and the IPC transport
  ['src/main/transport/ws-server.ts', value('electron'), 'ws transport → electron'],
  ['src/main/host/session-host.ts', value('electron'), 'host → electron'],
  ['src/main/cli.ts', value('electron'), 'cli → electron'],
  ['src/agents/demo/agent-app.ts', value('electron'), 'agents → electron'],
  // shared ↛ everything but zod
  ['src/shared/contract.ts', value('../main/host/host-port'), 'shared → main'],
  ['src/shared/contract.ts', value('../renderer/src/lib/diff'), 'shared → renderer'],
  ['src/shared/contract.ts', value('../preload/index'), 'shared → preload'],
  ['src/shared/contract.ts', value('../agents/demo/options'), 'shared → agents'],
  ['src/shared/errors.ts', value('node:path'), 'shared → Node'],
  ['src/shared/errors.ts', value('@agentclientprotocol/sdk'), 'shared → another package'],
  // preload ↛ everything but electron and shared/channels (contract: types only)
  ['src/preload/index.ts', value('../shared/contract'), 'preload → contract values'],
  ['src/preload/index.ts', value('zod'), 'preload → zod'],
  ['src/preload/index.ts', value('../main/host/host-port'), 'preload → main'],
  ['src/preload/index.ts', value('../renderer/src/lib/diff'), 'preload → renderer'],
  ['src/preload/index.ts', value('node:path'), 'preload → Node'],
  // agents ↛ main, renderer, shared
  ['src/agents/demo/agent-app.ts', value('../../main/catalogue/demo-agent'), 'agents → main'],
  ['src/agents/demo/agent-app.ts', value('../../renderer/src/lib/diff'), 'agents → renderer'],
  ['src/agents/demo/agent-app.ts', value('../../shared/contract'), 'agents → shared'],
  // product code ↛ test helpers
  ['src/main/util/clock.ts', value('../test-support/fake-clock'), 'main product → test-support'],
  ['src/renderer/src/store/app-store.ts', value('../test-support/fake-api'), 'renderer product → test-support'],
  ['src/agents/demo/agent-app.ts', value('../test-support/demo-agent-process'), 'agents product → test-support'],
  // tests keep their folder's arrows; test helpers never open a window
  ['src/main/sessions/routing.test.ts', value('../host/session-host'), 'sessions test → host'],
  ['src/main/store/event-log.test.ts', value('../sessions/state-machine'), 'store test → sessions'],
  ['src/renderer/src/store/selectors.test.ts', value('../../../main/host/host-port'), 'renderer test → main'],
  ['src/main/test-support/host-harness.ts', value('../app/windows'), 'test-support → app'],
];

/** [file, import, why] — each must pass. */
const allowed: [string, string, string][] = [
  ['src/renderer/src/store/app-store.ts', value('../../../shared/contract'), 'renderer → shared'],
  ['src/main/host/session-host.ts', value('../sessions/session-service'), 'host → sessions'],
  ['src/main/host/session-host.ts', value('./dispatch'), 'host → itself'],
  ['src/main/host/session-host.ts', value('../catalogue/agent-catalogue'), 'host → catalogue'],
  ['src/main/host/session-host.ts', value('../datadir/paths'), 'host → datadir'],
  ['src/main/host/session-host.ts', value('../workspace/folders'), 'host → workspace'],
  ['src/main/catalogue/agent-tester.ts', value('../brokers/broker-pool'), 'catalogue → brokers'],
  ['src/main/catalogue/agent-tester.ts', value('../sessions/auth-request'), 'catalogue → sessions'],
  ['src/main/catalogue/agent-probes.ts', value('../workspace/folders'), 'catalogue → workspace'],
  ['src/main/datadir/storage-health.ts', value('../store/storage-errors'), 'datadir → store'],
  ['src/main/workspace/file-search.ts', value('../util/clock'), 'workspace → util'],
  ['src/main/sessions/session-service.ts', value('../workspace/folders'), 'sessions → workspace'],
  ['src/main/app/safe-storage-box.ts', typeOnly('../catalogue/secret-box'), 'app → the SecretBox port type'],
  ['src/main/app/folder-picker.ts', typeOnly('../workspace/folders'), 'app → the FolderPicker port type'],
  ['src/main/app/main.ts', value('../datadir/paths'), 'app → datadir'],
  ['src/main/sessions/session-service.ts', value('../brokers/broker'), 'sessions → brokers'],
  ['src/main/sessions/session-service.ts', value('../permissions/permission-gate'), 'sessions → permissions'],
  ['src/main/brokers/broker-pool.ts', value('../store/brokers.repo'), 'brokers → store'],
  ['src/main/permissions/permission-gate.ts', value('../store/permissions.repo'), 'permissions → store'],
  ['src/main/reaper/idle-reaper.ts', value('../util/timer-queue'), 'reaper → util'],
  ['src/main/store/event-log.ts', value('../util/clock'), 'store → util'],
  ['src/main/transport/ws-server.ts', value('../host/host-port'), "transport → the host's port"],
  ['src/main/transport/ws-server.ts', value('../host/dispatch'), "transport → the host's dispatcher"],
  ['src/main/transport/electron-ipc.ts', value('electron'), 'IPC transport → electron'],
  ['src/main/app/main.ts', value('electron'), 'app → electron'],
  ['src/main/app/main.ts', value('../host/session-host'), 'app → host'],
  ['src/main/cli.ts', value('./transport/ws-server'), 'cli.ts → transport'],
  ['src/shared/contract.ts', value('zod'), 'shared → zod'],
  ['src/shared/contract.ts', value('./errors'), 'shared → shared'],
  ['src/preload/index.ts', value('electron'), 'preload → electron'],
  ['src/preload/index.ts', value('../shared/channels'), 'preload → channels'],
  ['src/preload/index.ts', typeOnly('../shared/contract'), 'preload → contract types'],
  ['src/agents/demo/agent-app.ts', value('@agentclientprotocol/sdk'), 'agents → ACP SDK'],
  ['src/main/sessions/routing.test.ts', value('../test-support/host-harness'), 'sessions test → test-support'],
  ['src/main/reaper/idle-reaper.test.ts', value('../store/store'), 'reaper test → a real store'],
  ['src/renderer/src/store/selectors.test.ts', value('../test-support/fake-api'), 'renderer test → test-support'],
  ['src/main/test-support/host-harness.ts', value('../host/session-host'), 'test-support → host'],
];

describe('layer rules (eslint.layers.js)', () => {
  it.each(wrong.map(([file, source, why]) => ({ file, source, why })))('reports $why', async ({ file, source }) => {
    const messages = await restricted(file, source);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/^no-restricted-imports: /);
  });

  it.each(allowed.map(([file, source, why]) => ({ file, source, why })))('allows $why', async ({ file, source }) => {
    expect(await restricted(file, source)).toEqual([]);
  });

  it('gives every folder under src/main, and every process folder, a layer rule', async () => {
    const folders = [
      ...readdirSync(join(root, 'src/main'), { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => `src/main/${d.name}`),
      'src/main',
      'src/shared',
      'src/preload',
      'src/renderer/src',
      'src/agents/demo',
    ];
    for (const folder of folders) {
      for (const file of ['probe.ts', 'probe.test.ts']) {
        const config = (await eslint.calculateConfigForFile(join(root, folder, file))) as { rules?: Record<string, unknown> };
        expect(config.rules?.['no-restricted-imports'], `${folder}/${file}`).toBeDefined();
      }
    }
  });
});
