import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'scripts/**/*.test.ts', 'e2e-agents/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Tests spawn real agent processes; two cores can't run many files at once.
    maxWorkers: 2,
    fileParallelism: true,
  },
});
