// Types for `electron-builder.config.mjs` (plain JS so electron-builder loads it without a build).
import type { Configuration } from 'electron-builder';

declare const config: Configuration;
export default config;
