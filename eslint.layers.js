// @ts-check
/**
 * The layers of docs/architecture.md ("Layers"), as lint rules: who may import whom.
 *
 * Each layer says what it MAY import; everything else in `src/` is turned into
 * `no-restricted-imports` patterns for that folder, so a wrong arrow fails `npm run lint`.
 * ESLint replaces a rule's options when a later config block matches the same file, so every
 * file gets exactly one block here and each block carries every restriction of its folder
 * (the `electron` rule included). `scripts/lint-layers.test.ts` proves each arrow.
 *
 * Imports are relative, so a folder is recognised by its name as a path segment followed by
 * `/` (`../host/x`, `../../main/host/x`); no two folders a layer may confuse share a name.
 */

/** A path segment naming `folder`, followed by a file or folder inside it. */
const inside = (folder) => `(^|/)${folder}/`;

/** The parts of the main process, by folder under src/main/. */
const MAIN_PARTS = ['host', 'catalogue', 'datadir', 'workspace', 'sessions', 'brokers', 'permissions', 'reaper', 'store', 'transport', 'app', 'cli', 'util', 'test-support'];

/**
 * What each part of the main process may import besides itself, `src/shared`, npm packages
 * and Node. `host-port` is the host's port to the transports: `host/host-port.ts` (`HostPort`) and
 * `host/dispatch.ts` (validation + one handler per command), nothing else of the host.
 */
const MAY_IMPORT = {
  host: ['catalogue', 'datadir', 'workspace', 'sessions', 'brokers', 'permissions', 'reaper', 'store', 'util'],
  // The agents a session can use: known, detected, tested (on a probe), signed in, their secrets.
  catalogue: ['sessions', 'workspace', 'brokers', 'store', 'util'],
  // The data folder: its paths, lock, settings and the health of the database file.
  datadir: ['store', 'util'],
  // Folders, file search, git: sessions ask it for a working folder; it never knows sessions.
  workspace: ['store', 'util'],
  sessions: ['workspace', 'brokers', 'permissions', 'store', 'util'],
  brokers: ['store', 'util'],
  permissions: ['store', 'util'],
  reaper: ['util'],
  store: ['util'],
  transport: ['host-port', 'util'],
  app: ['host', 'datadir', 'transport', 'util'],
  // src/main/cli/ (argument parsing) and src/main/cli.ts (`switchboard serve`, beside it).
  cli: ['host', 'catalogue', 'datadir', 'util'],
  'cli.ts': ['cli', 'host', 'catalogue', 'datadir', 'transport', 'util'],
  util: [],
  // Test helpers assemble real hosts, pools and stores; they never open a window.
  'test-support': MAIN_PARTS.filter((part) => part !== 'app'),
};

/**
 * Types a part may take from a folder it may not import: the shell implements the host's ports
 * to the machine (a `SecretBox` sealed by safeStorage, the system's `FolderPicker`).
 */
const PORT_TYPES = {
  app: ['catalogue', 'workspace'],
};

/** Tests may use what their folder may, plus the test helpers and a real SQLite store. */
const TESTS_MAY_ALSO = ['test-support', 'store'];

/** The table itself, for the test that holds docs/architecture.md's "Layers" to it. */
export const layerTable = { mainParts: MAIN_PARTS, mayImport: MAY_IMPORT, portTypes: PORT_TYPES };

const TESTS = ['**/*.test.ts', '**/*.test.tsx'];

/** One `no-restricted-imports` pattern. */
const deny = (regex, message, extra = {}) => ({ regex, message, caseSensitive: true, ...extra });

const electron = deny('^electron$', 'Only src/main/app and the IPC transport import electron (the host runs in plain Node too).');
const nodeBuiltins = deny('^node:', 'The renderer runs in a browser: no Node modules.');
const otherProcesses = (self) =>
  ['main', 'renderer', 'preload', 'agents']
    .filter((p) => p !== self)
    .map((p) => deny(inside(p), `src/${self} must not import src/${p}: they are different processes and meet only through the contract.`));
const testSupport = deny(inside('test-support'), 'Product code must not import test helpers.');

/** The patterns for a part of the main process that may import `may`. */
function mainPart(name, may, { allowElectron = false } = {}) {
  const patterns = otherProcesses('main');
  for (const part of MAIN_PARTS) {
    if (part === name || may.includes(part)) continue;
    if (part === 'host' && may.includes('host-port')) {
      patterns.push(deny('(^|/)host/(?!(host-port|dispatch)$)', `src/main/${name} may import only the host's port (host/host-port, host/dispatch).`));
      continue;
    }
    if (PORT_TYPES[name]?.includes(part)) {
      patterns.push(deny(inside(part), `src/main/${name} may take only types from src/main/${part} (the ports it implements).`, { allowTypeImports: true }));
      continue;
    }
    if (part === 'test-support') patterns.push(testSupport);
    // `cli` is the folder and `src/main/cli.ts` beside it (imported as `../cli`).
    else if (part === 'cli') patterns.push(deny('(^|/)cli(/|$)', `src/main/${name} must not import the command line (src/main/cli, cli.ts).`));
    else patterns.push(deny(inside(part), `src/main/${name} must not import src/main/${part} (docs/architecture.md, Layers).`));
  }
  if (!allowElectron) patterns.push(electron);
  return patterns;
}

function block(files, patterns, ignores = []) {
  return { files, ignores, rules: { 'no-restricted-imports': ['error', { patterns }] } };
}

const testsIn = (dir) => TESTS.map((t) => `${dir}/${t}`);

/** One block for the product code of `dir` and one for its tests; `ignores` have blocks of their own. */
function layer(dir, product, tests, ignores = []) {
  return [block([`${dir}/**`], product, [...ignores, ...testsIn(dir)]), block(testsIn(dir), tests, ignores)];
}

/** The product and test blocks of a part of the main process. */
function mainLayer(name, dir, may, options = {}) {
  return layer(dir, mainPart(name, may, options), mainPart(name, [...may, ...TESTS_MAY_ALSO], options), options.ignores);
}

const IPC = 'src/main/transport/electron-ipc';

const mainConfigs = [
  ...mainLayer('host', 'src/main/host', MAY_IMPORT.host),
  ...mainLayer('catalogue', 'src/main/catalogue', MAY_IMPORT.catalogue),
  ...mainLayer('datadir', 'src/main/datadir', MAY_IMPORT.datadir),
  ...mainLayer('workspace', 'src/main/workspace', MAY_IMPORT.workspace),
  ...mainLayer('sessions', 'src/main/sessions', MAY_IMPORT.sessions),
  ...mainLayer('brokers', 'src/main/brokers', MAY_IMPORT.brokers),
  ...mainLayer('permissions', 'src/main/permissions', MAY_IMPORT.permissions),
  ...mainLayer('reaper', 'src/main/reaper', MAY_IMPORT.reaper),
  ...mainLayer('store', 'src/main/store', MAY_IMPORT.store),
  ...mainLayer('util', 'src/main/util', MAY_IMPORT.util),
  ...mainLayer('cli', 'src/main/cli', MAY_IMPORT.cli),
  ...mainLayer('app', 'src/main/app', MAY_IMPORT.app, { allowElectron: true }),
  // The Electron IPC adapter is the one transport that imports electron.
  ...mainLayer('transport', 'src/main/transport', MAY_IMPORT.transport, { ignores: [`${IPC}*.ts`] }),
  block([`${IPC}.ts`], mainPart('transport', MAY_IMPORT.transport, { allowElectron: true })),
  block([`${IPC}*.test.ts`], mainPart('transport', [...MAY_IMPORT.transport, ...TESTS_MAY_ALSO], { allowElectron: true })),
  block(['src/main/*.ts'], mainPart('cli', MAY_IMPORT['cli.ts']), TESTS),
  block(['src/main/*.test.ts'], mainPart('cli', [...MAY_IMPORT['cli.ts'], ...TESTS_MAY_ALSO])),
  block(['src/main/test-support/**'], mainPart('test-support', MAY_IMPORT['test-support'])),
];

/** The contract is pure: zod and itself, nothing of a process, no Node, no DOM. */
const sharedProduct = [deny('^(?!zod$|\\./)', 'src/shared imports only zod and src/shared: it is loaded by every process.')];
// Its tests run in Node (the node project compiles them) and may read the contract's source.
const sharedTests = [deny('^(?!zod$|vitest$|node:|\\./)', 'src/shared tests import only vitest, zod, Node and src/shared.')];

/**
 * The sandboxed preload requires only `electron` and the zod-free channel table; the contract
 * gives it types only (electron.vite.config.ts checks the bundle too).
 */
const preloadProduct = [
  deny('^(?!electron$|\\./|\\.\\./shared/(channels|contract)$)', 'The preload imports only electron and src/shared/channels.'),
  deny('^\\.\\./shared/contract$', 'The preload takes only types from the contract (zod would not load in the sandbox).', { allowTypeImports: true }),
];
const preloadTests = [deny('^(?!electron$|vitest$|\\./|\\.\\./shared/)', 'Preload tests import only vitest, electron, the preload and src/shared.')];

const renderer = [...otherProcesses('renderer'), electron, nodeBuiltins];
/**
 * Renderer tests may also read the demo agent's Markdown generator (a pure function, no Node):
 * the window's streamed rendering is compared with the very documents the agent streams.
 */
const rendererTests = [
  ...otherProcesses('renderer').filter((p) => p.regex !== inside('agents')),
  deny('(^|/)agents/(?!demo/markdown-doc$)', 'src/renderer must not import src/agents (tests may use agents/demo/markdown-doc only).'),
  electron,
  nodeBuiltins,
];
/** A renderer test that measures the heap (`*.node.test.ts`) may use Node itself: it runs in Node, as every test. */
const RENDERER_NODE_TESTS = ['src/renderer/**/*.node.test.ts'];
const rendererNodeTests = rendererTests.filter((p) => p !== nodeBuiltins);
const agents = [...otherProcesses('agents'), deny(inside('shared'), 'The demo agent speaks only ACP: it must not import Switchboard code.'), electron];

export const layerConfigs = [
  ...layer('src/shared', sharedProduct, sharedTests),
  ...layer('src/preload', preloadProduct, preloadTests),
  ...layer('src/renderer', [...renderer, testSupport], rendererTests, ['src/renderer/src/test-support/**', ...RENDERER_NODE_TESTS]),
  block(RENDERER_NODE_TESTS, rendererNodeTests),
  block(['src/renderer/src/test-support/**'], renderer),
  ...layer('src/agents', [...agents, testSupport], agents, ['src/agents/test-support/**']),
  block(['src/agents/test-support/**'], agents),
  ...mainConfigs,
];
