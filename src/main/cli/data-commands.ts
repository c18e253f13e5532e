/**
 * `switchboard backup FILE`, `switchboard restore FILE` and `switchboard doctor`: the commands
 * about a data folder, parsed here (`parse-args.ts` hands them over) and run by
 * `run-data-command.ts`.
 */
import { defaultDataDir } from '../datadir/paths';

export type DataCommand =
  | { command: 'backup'; file: string; dataDir: string }
  | { command: 'restore'; file: string; dataDir: string }
  | { command: 'doctor'; dataDir: string };

export const DATA_COMMANDS = ['backup', 'restore', 'doctor'] as const;

/** The usage lines of these commands (after serve's) and what they do (after serve's options). */
export const DATA_USAGE_LINES = `       switchboard backup FILE [--data-dir DIR]
       switchboard restore FILE [--data-dir DIR]
       switchboard doctor [--data-dir DIR]
`;

export const DATA_USAGE = `The data folder (--data-dir DIR, default as for serve):
  backup FILE    copies the database to FILE (a new file), also while Switchboard runs
  restore FILE   puts the backup FILE in place of the database (Switchboard must not be
                 running on that folder); the current database is kept aside, renamed
                 with the time. A damaged file or one of a newer Switchboard is refused.
  doctor         checks the data folder, its database, the agents, git and Chromium,
                 and says what to fix; exit status 1 if anything is wrong
`;

/** Parses a data-folder command (`command` already taken off `args`); throws `Error` with the usage problem. */
export function parseDataCommand(command: (typeof DATA_COMMANDS)[number], args: string[], env: NodeJS.ProcessEnv): DataCommand {
  let dataDir: string | undefined;
  const positional: string[] = [];
  while (args.length > 0) {
    const arg = args.shift() as string;
    if (arg === '--data-dir' || arg.startsWith('--data-dir=')) {
      const value = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : args.shift();
      if (value === undefined || (!arg.includes('=') && value.startsWith('--'))) throw new Error('--data-dir needs a value');
      if (!value.trim()) throw new Error('--data-dir must not be empty');
      dataDir = value;
    } else if (arg.startsWith('--')) {
      throw new Error(`unknown option ${arg.split('=')[0]} for ${command}`);
    } else {
      positional.push(arg);
    }
  }
  const dir = dataDir ?? defaultDataDir(env);
  if (command === 'doctor') {
    if (positional.length > 0) throw new Error(`unexpected argument ${JSON.stringify(positional[0])}`);
    return { command, dataDir: dir };
  }
  if (positional.length !== 1 || !positional[0]!.trim()) throw new Error(`${command} needs exactly one FILE`);
  return { command, file: positional[0]!, dataDir: dir };
}
