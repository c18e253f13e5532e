import type { RegistrySnapshotT } from '../../../shared/registry';
import raw from './snapshot.json';

/**
 * The registry as bundled with this build (regenerate with scripts/registry-snapshot.ts): what
 * Add from registry lists when the registry's address does not answer and nothing is cached.
 * Not parsed at run time (≈7 ms of every start, ADR 0027): its test parses it with
 * `RegistrySnapshot` and finds it unchanged, so a snapshot that does not parse fails the build.
 */
export function bundledSnapshot(): RegistrySnapshotT {
  return raw as RegistrySnapshotT;
}
