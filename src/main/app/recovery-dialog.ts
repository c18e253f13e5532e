/**
 * The desktop app's questions about a damaged database (issue 23): at start, when it cannot be
 * opened, and while the app runs, when the check beside the start finds damage. Each names the
 * newest good backup and what going back to it would lose; the damaged file is always kept
 * aside. Free of Electron (`desktop.ts` asks through its `ask` port), so tested as it is.
 */
import { describeRecoveryOffer, type RecoveryOffer } from '../datadir/backup-recovery';

/** A question with buttons; the answer is the index of the button chosen (Escape: `cancelId`). */
export interface Choice {
  type: 'error' | 'warning' | 'question';
  title: string;
  message: string;
  detail: string;
  buttons: string[];
  defaultId: number;
  cancelId: number;
}

/** At start: the database cannot be opened. Button 0 restores the backup, 1 quits. */
export function recoveryAtStartDialog(offer: RecoveryOffer): Choice {
  return {
    type: 'error',
    title: 'Switchboard’s database is damaged',
    message: 'Switchboard’s database is damaged. Restore its newest good backup?',
    detail: `${offer.damaged}: ${offer.detail}\n\n${describeRecoveryOffer(offer)}`,
    buttons: ['Restore the backup', 'Quit'],
    defaultId: 0,
    cancelId: 1,
  };
}

/**
 * While running: the check found damage the start did not. With a backup, button 0 restarts
 * and restores it, 1 goes on for now (the banner stays); without one, only OK.
 */
export function damagedWhileRunningDialog(offer: RecoveryOffer): Choice {
  const common = {
    type: 'warning' as const,
    title: 'Switchboard’s database is damaged',
    message: 'Switchboard’s database is damaged.',
    detail: `${offer.damaged}: ${offer.detail}\n\nSwitchboard goes on, but what sits in the damaged part is lost, and no more backups are taken.\n\n${describeRecoveryOffer(offer)}`,
  };
  if (!offer.backup) return { ...common, buttons: ['OK'], defaultId: 0, cancelId: 0 };
  return { ...common, message: 'Switchboard’s database is damaged. Restart and restore its newest good backup?', buttons: ['Restart and restore', 'Later'], defaultId: 0, cancelId: 1 };
}
