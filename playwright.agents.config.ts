import { defineConfig } from '@playwright/test';
import { chromiumExecutable } from './e2e/support/browser';

const executablePath = chromiumExecutable();

/**
 * `npm run test:agents`: real ACP agents from the npm registry (installed first by
 * e2e-agents/install.ts) driven through the headless host in Chromium. Not part of `npm test`.
 */
export default defineConfig({
  testDir: 'e2e-agents',
  testMatch: '**/*.e2e.ts',
  globalSetup: './e2e/support/global-setup.ts',
  // Real agents start slowly (Claude's adapter takes seconds to initialise its SDK).
  timeout: 150_000,
  expect: { timeout: 45_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  outputDir: 'test-results/agents',
  use: {
    browserName: 'chromium',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      ...(executablePath ? { executablePath } : {}),
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
});
