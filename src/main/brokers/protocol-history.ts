/**
 * The last ACP traffic of every agent, kept whether or not the protocol log is on, for the
 * crash log (issue 23): when the host fails, the messages that led there are the first thing
 * anyone asks for. Kept as the raw chunks the streams carried (one copy each, no parsing on the
 * path a turn streams through), bounded in bytes; split into lines, redacted and cut only when
 * a crash log is written.
 */
import type { AgentLogEntryT } from '../../shared/contract';
import type { Clock } from '../util/clock';
import { protocolEntry } from './protocol-tap';

/** Bytes of traffic kept over every agent: a few hundred typical messages. */
const DEFAULT_MAX_BYTES = 512 * 1024;
/** Of a larger chunk (a file's contents in one message) only its end is kept. */
const MAX_CHUNK_BYTES = 32 * 1024;

interface Chunk {
  at: number;
  stream: string;
  agentId: string;
  direction: 'in' | 'out';
  bytes: Uint8Array;
  /** The chunk's start was dropped: its first line is not whole. */
  cut: boolean;
}

/** One line of an agent's traffic, redacted as the protocol log writes it. */
export interface HistoryLine {
  at: number;
  agentId: string;
  /** The agent process (its broker id's first characters). */
  broker: string;
  entry: Extract<AgentLogEntryT, { kind: 'protocol' }>;
}

/**
 * A line as the protocol log shows it, its secret-named values redacted. A line that is not
 * JSON cannot be redacted by key, so only its length is kept.
 */
function redacted(direction: 'in' | 'out', line: string, at: number): HistoryLine['entry'] {
  try {
    JSON.parse(line);
  } catch {
    return { kind: 'protocol', at, direction, text: `(not JSON, ${line.length} characters)` };
  }
  return protocolEntry(direction, line, at) as HistoryLine['entry'];
}

export class ProtocolHistory {
  private chunks: Chunk[] = [];
  /** Index of the oldest chunk still kept (dropped ones are compacted away now and then). */
  private head = 0;
  private bytes = 0;
  /** Streams whose oldest chunks were dropped: their first kept line may be a piece. */
  private readonly truncated = new Set<string>();

  constructor(
    private readonly clock: Clock,
    private readonly maxBytes = DEFAULT_MAX_BYTES,
  ) {}

  /** A chunk of one agent's stream, as it passed. */
  record(brokerId: string, agentId: string, direction: 'in' | 'out', chunk: Uint8Array): void {
    const cut = chunk.byteLength > MAX_CHUNK_BYTES;
    // A copy: a chunk may be a view of a larger buffer that must not be kept alive.
    const bytes = Uint8Array.prototype.slice.call(cut ? chunk.subarray(chunk.byteLength - MAX_CHUNK_BYTES) : chunk);
    this.chunks.push({ at: this.clock.now(), stream: `${brokerId}:${direction}`, agentId, direction, bytes, cut });
    this.bytes += bytes.byteLength;
    while (this.bytes > this.maxBytes && this.chunks.length - this.head > 1) {
      const dropped = this.chunks[this.head]!;
      this.bytes -= dropped.bytes.byteLength;
      this.truncated.add(dropped.stream);
      this.chunks[this.head] = undefined as unknown as Chunk;
      this.head++;
    }
    if (this.head > 1024 && this.head * 2 > this.chunks.length) {
      this.chunks = this.chunks.slice(this.head);
      this.head = 0;
    }
  }

  /**
   * The last `n` lines over every agent, oldest first, each redacted (`protocolEntry`). A line
   * whose start was dropped is left out; one still being written is shown as far as it came.
   */
  lines(n = 200): HistoryLine[] {
    const kept = this.chunks.slice(this.head);
    const streams = new Map<string, Chunk[]>();
    for (const c of kept) {
      const list = streams.get(c.stream) ?? [];
      list.push(c);
      streams.set(c.stream, list);
    }
    const decoder = new TextDecoder();
    const out: HistoryLine[] = [];
    for (const [stream, chunks] of streams) {
      const broker = stream.slice(0, 8);
      let pending = '';
      // The oldest chunk kept may begin mid-line; so may any chunk cut to its end.
      let whole = !this.truncated.has(stream);
      for (const c of chunks) {
        if (c.cut) {
          pending = '';
          whole = false;
        }
        const parts = (pending + decoder.decode(c.bytes)).split('\n');
        pending = parts.pop() ?? '';
        for (const line of parts) {
          if (whole && line.trim() !== '') out.push({ at: c.at, agentId: c.agentId, broker, entry: redacted(c.direction, line, c.at) });
          whole = true;
        }
      }
      const last = chunks.at(-1)!;
      if (pending.trim() !== '') out.push({ at: last.at, agentId: last.agentId, broker, entry: { kind: 'protocol', at: last.at, direction: last.direction, text: `(a message still being written, ${pending.length} characters so far)` } });
    }
    return out.sort((a, b) => a.at - b.at).slice(-n);
  }
}
