// Preloaded into `switchboard serve` by the benchmark (`node --import`): Node's event-loop delay
// histogram of the host process, read and reset over the IPC channel the benchmark opened. The
// host's code is not changed; the histogram sees every task of its event loop.
import { monitorEventLoopDelay } from 'node:perf_hooks';

if (typeof process.send === 'function') {
  // A 1 ms timer: each sample is the interval between two timer runs (1 ms + the delay).
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  const ms = (ns) => ns / 1e6;
  const figures = () => ({
    count: histogram.count,
    p50: ms(histogram.percentile(50)),
    p99: ms(histogram.percentile(99)),
    max: ms(histogram.max),
    mean: ms(histogram.mean),
  });
  process.on('message', (message) => {
    if (!message || message.type !== 'loop-probe') return;
    const reply = (body) => process.send({ type: 'loop-probe', id: message.id, ...body });
    if (message.op === 'reset') {
      histogram.reset();
      reply({});
    } else if (message.op === 'read') {
      reply(figures());
    } else if (message.op === 'block') {
      // The probe's proof: a deliberate block of the host's loop must show in the histogram.
      setTimeout(() => {
        const end = performance.now() + message.ms;
        while (performance.now() < end);
        setTimeout(() => reply(figures()), 5);
      }, 5);
    }
  });
  // The channel must not keep the host alive: it exits on SIGTERM as it would without the probe.
  process.channel?.unref();
}
