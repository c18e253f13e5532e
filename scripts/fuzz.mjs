#!/usr/bin/env node
/**
 * `npm run fuzz`: the property-based tests (`*.fuzz.test.ts`) with many more cases than
 * `npm test` runs. FUZZ_SCALE multiplies each target's count (default 10 here), FUZZ_RUNS
 * sets every target's count, FUZZ_SEED picks another seed; extra arguments go to vitest
 * (`npm run fuzz -- src/main/store`).
 */
import { spawnSync } from 'node:child_process';

const env = { ...process.env };
if (!env.FUZZ_RUNS && !env.FUZZ_SCALE) env.FUZZ_SCALE = '10';
const filters = process.argv.slice(2);
const args = ['vitest', 'run', ...(filters.length > 0 ? filters : ['.fuzz.test.ts'])];
console.log(`fuzz: FUZZ_SCALE=${env.FUZZ_SCALE ?? '-'} FUZZ_RUNS=${env.FUZZ_RUNS ?? '-'} FUZZ_SEED=${env.FUZZ_SEED ?? 'default'}`);
const result = spawnSync('npx', args, { stdio: 'inherit', env, shell: process.platform === 'win32' });
process.exit(result.status ?? 1);
