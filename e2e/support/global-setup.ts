import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { chromium } from '@playwright/test';
import { chromiumExecutable } from './browser';

const root = resolve(import.meta.dirname, '../..');

/** The suite runs against the built app; and it needs a Chromium. */
export default function globalSetup(): void {
  if (!existsSync(resolve(root, 'out/main/cli.js')) || !existsSync(resolve(root, 'out/renderer/index.html'))) {
    const built = spawnSync(process.execPath, ['scripts/ensure-built.mjs'], { cwd: root, stdio: 'inherit' });
    if (built.status !== 0) throw new Error('building the app for the e2e suite failed');
  }
  if (chromiumExecutable()) return;
  if (existsSync(chromium.executablePath())) return;
  console.log('e2e: no system Chromium; installing Playwright\'s own (needs the internet) …');
  const installed = spawnSync(process.execPath, [resolve(root, 'node_modules/@playwright/test/cli.js'), 'install', 'chromium'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (installed.status !== 0) {
    throw new Error('No Chromium: install Debian\'s `chromium` (apt-get install chromium) or allow `playwright install chromium`');
  }
}
