/**
 * The ACP SDK, read on first use rather than with the host: its schemas are the largest module
 * `serve` would otherwise evaluate before its ready line, and only a running agent needs them
 * (the first use is a broker's construction; everything else runs on an agent's traffic).
 *
 * Synchronous `require` of the ES module (Node ≥ 20.19, Electron's Node 22) keeps every caller
 * as it was. Nothing may `import()` the SDK at run time as well: a `require` while that import
 * is in flight fails ("not yet fully loaded"). Types stay `import type`.
 */
import { createRequire } from 'node:module';
import type * as Acp from '@agentclientprotocol/sdk';

let sdk: typeof Acp | undefined;

export function acpSdk(): typeof Acp {
  sdk ??= createRequire(import.meta.url)('@agentclientprotocol/sdk') as typeof Acp;
  return sdk;
}
