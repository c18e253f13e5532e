import { safeStorage } from 'electron';
import type { SecretBox } from '../catalogue/secret-box';

/**
 * Agents' secrets sealed with the OS keychain (Keychain, DPAPI, libsecret/kwallet). Linux's
 * `basic_text` backend encrypts with a key baked into Chromium: no protection beyond the file's
 * 0600 mode, so it is not used (the host then keeps plain values in that 0600 file, as `serve`
 * does). Call after `app.whenReady()`.
 */
export function safeStorageBox(): SecretBox | undefined {
  if (!safeStorage.isEncryptionAvailable()) return undefined;
  if (process.platform === 'linux' && safeStorage.getSelectedStorageBackend() === 'basic_text') return undefined;
  return {
    kind: 'safeStorage',
    seal: (plain) => safeStorage.encryptString(plain).toString('base64'),
    open: (sealed) => safeStorage.decryptString(Buffer.from(sealed, 'base64')),
  };
}
