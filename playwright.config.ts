import { defineConfig } from '@playwright/test';
import { chromiumExecutable } from './e2e/support/browser';

const executablePath = chromiumExecutable();

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.e2e.ts',
  globalSetup: './e2e/support/global-setup.ts',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  // Two cores: one browser and one host at a time keeps timings honest.
  workers: 1,
  retries: 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'headless-host',
      testIgnore: '**/electron.e2e.ts',
      use: {
        browserName: 'chromium',
        launchOptions: {
          ...(executablePath ? { executablePath } : {}),
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            '--no-first-run',
          ],
        },
      },
    },
    { name: 'electron', testMatch: '**/electron.e2e.ts' },
  ],
});
