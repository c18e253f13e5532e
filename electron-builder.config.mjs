// Installers for the desktop app: `npm run dist` (README, "Installers").
//
// The app is the built `out/` folder plus the runtime `dependencies` of package.json, packed in
// an asar archive. better-sqlite3 is a native module: electron-builder rebuilds it for the
// Electron version in devDependencies (`npmRebuild`), and its `.node` file is unpacked from the
// asar because a native module cannot be loaded from inside one. The app then loads it from
// node_modules (`src/main/app/native-binding.ts`: packaged → `bundled`).
// `scripts/dist-config.test.ts` loads this file and checks what it packs and unpacks.

/** @type {import('electron-builder').Configuration} */
const config = {
  appId: 'dev.switchboard.desktop',
  productName: 'Switchboard',
  copyright: 'MIT licensed',
  directories: { output: 'dist', buildResources: 'build-resources' },
  // Only what runs: the bundles (no sources, tests or source maps), and package.json for `main`.
  files: ['out/**/*', '!out/**/*.map', 'package.json'],
  extraMetadata: { main: 'out/main/index.js' },
  asar: true,
  asarUnpack: ['node_modules/better-sqlite3/build/Release/*.node'],
  npmRebuild: true,
  // Prebuilt Electron binaries of better-sqlite3 when published; from source otherwise.
  buildDependenciesFromSource: false,
  // Electron's fuses, flipped in the packaged binary (before signing): it can no longer be
  // turned into a plain Node interpreter (ELECTRON_RUN_AS_NODE), take Node options from the
  // environment (NODE_OPTIONS) or a debugger from its arguments (--inspect), and it runs only
  // the app in its own asar, whose integrity it checks (macOS, Windows); cookies are encrypted
  // with the OS keychain. The app's own helper processes (watchdog, demo agent) run as the
  // app's binary in a role (`--switchboard-role`, src/main/app/roles.ts), not as Node.
  // `scripts/fuses.test.ts` flips a binary with this configuration and reads every fuse back.
  electronFuses: {
    runAsNode: false,
    enableNodeOptionsEnvironmentVariable: false,
    enableNodeCliInspectArguments: false,
    onlyLoadAppFromAsar: true,
    enableEmbeddedAsarIntegrityValidation: true,
    enableCookieEncryption: true,
    // Flipping fuses breaks an ad-hoc signature (unsigned Apple silicon builds): sign again.
    resetAdHocDarwinSignature: true,
  },
  linux: {
    target: ['AppImage', 'deb'],
    category: 'Development',
    maintainer: 'Switchboard <switchboard@users.noreply.github.com>',
    synopsis: 'Run many AI coding-agent sessions side by side',
  },
  deb: { depends: ['libnss3', 'libgtk-3-0', 'libxss1', 'libasound2'] },
  mac: { target: ['dmg'], category: 'public.app-category.developer-tools' },
  win: { target: ['nsis'] },
  nsis: { oneClick: false, allowToChangeInstallationDirectory: true, perMachine: false },
  publish: null,
};

export default config;
