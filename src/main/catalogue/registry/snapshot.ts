import { RegistrySnapshot, type RegistrySnapshotT } from '../../../shared/registry';
import raw from './snapshot.json';

let parsed: RegistrySnapshotT | undefined;

/**
 * The registry as bundled with this build (regenerate with scripts/registry-snapshot.ts): what
 * Add from registry lists when the registry's address does not answer and nothing is cached.
 * Read once; a snapshot that does not parse is a build error (its test fails first).
 */
export function bundledSnapshot(): RegistrySnapshotT {
  parsed ??= RegistrySnapshot.parse(raw);
  return parsed;
}
