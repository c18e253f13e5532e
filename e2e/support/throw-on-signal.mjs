// Preloaded into `serve` (NODE_OPTIONS=--import) by host-problems.e2e.ts: each SIGUSR2 throws an
// error nothing catches, on its own turn of the event loop, as a bug in the host would.
let n = 0;
process.on('SIGUSR2', () => {
  n += 1;
  setImmediate(() => {
    throw new Error(`e2e: thrown on SIGUSR2 (${n})`);
  });
});
