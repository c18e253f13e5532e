// Preloaded (through NODE_OPTIONS, so into the host and every agent it starts) by
// `bench/profile.ts first-text-path`: each process appends what its sockets and pipes read and
// write to `$SWITCHBOARD_IO_TRACE_DIR/<pid>.log`, one line each, stamped on the wall clock
// (performance.timeOrigin + now, microseconds) that the page's own marks use too. Nothing in the
// host or the agent is changed; this only wraps net.Socket's write and push.
import { openSync, writeSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';

const dir = process.env.SWITCHBOARD_IO_TRACE_DIR;
if (dir) {
  const fd = openSync(join(dir, `${process.pid}.log`), 'a');
  const stamp = () => (performance.timeOrigin + performance.now()).toFixed(3);
  const text = (chunk) => {
    const s = typeof chunk === 'string' ? chunk : chunk instanceof Uint8Array ? Buffer.from(chunk.buffer, chunk.byteOffset, Math.min(chunk.byteLength, 300)).toString('utf8') : '';
    return s.replace(/\s+/g, ' ').slice(0, 300);
  };
  const line = (what, chunk) => {
    try {
      writeSync(fd, `${stamp()} ${what} ${text(chunk)}\n`);
    } catch {
      // A trace that cannot be written must not change what the process does.
    }
  };
  line('START', process.argv.slice(1).join(' '));
  const write = net.Socket.prototype.write;
  net.Socket.prototype.write = function (chunk, ...rest) {
    line('W', chunk);
    return write.call(this, chunk, ...rest);
  };
  const push = net.Socket.prototype.push;
  net.Socket.prototype.push = function (chunk, ...rest) {
    if (chunk) line('R', chunk);
    return push.call(this, chunk, ...rest);
  };
}
