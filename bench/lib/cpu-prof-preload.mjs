// `NODE_OPTIONS=--import=<this file>` (Node 20 refuses --cpu-prof there): a CPU profile of every
// Node process started with it, written to $SWITCHBOARD_CPU_PROF_DIR when the process exits.
// bench/profile.ts uses it for the agent processes the host starts.
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';

const dir = process.env.SWITCHBOARD_CPU_PROF_DIR;
if (dir && !process.execArgv.some((a) => a.startsWith('--cpu-prof'))) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 500 });
  session.post('Profiler.start');
  const write = () => {
    // Same-thread inspector sessions answer synchronously, so this works inside 'exit'.
    session.post('Profiler.stop', (err, result) => {
      if (err || !result) return;
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, `${process.argv[1]?.split('/').at(-1) ?? 'node'}-${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
  };
  process.once('exit', write);
  for (const signal of ['SIGTERM', 'SIGINT']) {
    process.once(signal, () => {
      write();
      process.exit(128 + (signal === 'SIGTERM' ? 15 : 2));
    });
  }
}
