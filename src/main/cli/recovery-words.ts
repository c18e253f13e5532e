/**
 * What `serve` prints about a damaged database: how to take the offer of its newest good
 * backup, at start (refused without `--recover`) or when the check beside the start finds it.
 */
import { describeRecoveryOffer, type RecoveryOffer } from '../datadir/backup-recovery';

const quote = (path: string): string => JSON.stringify(path);

/** The two ways to go back to the offered backup, as commands to copy. */
export function howToRecover(offer: RecoveryOffer, dataDir: string): string {
  if (!offer.backup) return '';
  return [
    'To go back to that backup, either:',
    `  switchboard serve --recover --data-dir ${quote(dataDir)}     (restores it, then serves)`,
    `  switchboard restore ${quote(offer.backup.file)} --data-dir ${quote(dataDir)}`,
  ].join('\n');
}

/** Printed once when the check beside the start finds the database damaged; serve goes on. */
export function damagedWhileRunning(offer: RecoveryOffer, dataDir: string): string {
  const how = offer.backup ? `\nStop Switchboard (Ctrl+C), then: ${howToRecover(offer, dataDir).replace(/^To go back to that backup, either:\n/, '')}` : '';
  return `the database ${offer.damaged} is damaged (${offer.detail}). Serving goes on, but what sits in the damaged part is lost, and no backups are taken. ${describeRecoveryOffer(offer)}${how}`;
}
