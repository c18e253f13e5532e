import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { denseMarkdownDocument, denseSections, fixedChunks } from './dense-doc';
import { MARKDOWN_END, markdownChunks, markdownDocument } from './markdown-doc';
import { markdownTurnChunks, parseMarkdownArgs, SENT_AT_META, streamMarkdown, type PaceTimer } from './markdown-turn';
import { DemoAgentProcess } from '../test-support/demo-agent-process';

/** Fake time: a wait moves the clock on by exactly what was asked. */
function fakeTimer(): PaceTimer & { t: number; waits: number[] } {
  const timer = {
    t: 0,
    waits: [] as number[],
    now: () => timer.t,
    wall: () => 1_700_000_000_000 + timer.t,
    wait: (ms: number) => {
      timer.waits.push(ms);
      timer.t += ms;
      return Promise.resolve();
    },
  };
  return timer;
}

function collect() {
  return { sent: [] as { at: number; text: string }[], signal: new AbortController().signal };
}

describe('/markdown document', () => {
  it('is the same text for the same size and about that many kilobytes', () => {
    for (const kb of [1, 8, 100]) {
      const doc = markdownDocument(kb);
      expect(markdownDocument(kb)).toBe(doc);
      expect(doc.length).toBeGreaterThanOrEqual(kb * 1024 * 0.95);
      expect(doc.length).toBeLessThanOrEqual(kb * 1024 + 2048);
      expect(doc.trimEnd().endsWith(MARKDOWN_END)).toBe(true);
    }
  });

  it('holds what a coding agent writes: headings, lists, fences of several kinds, tables, quotes, emoji', () => {
    const doc = markdownDocument(40);
    expect(doc).toMatch(/^## /m);
    expect(doc).toMatch(/^-{5,}$/m); // setext underline
    expect(doc).toMatch(/^\d+\. /m);
    expect(doc).toMatch(/^ {3}- /m); // nested list
    expect(doc).toMatch(/^```(ts|python|bash|json|rust|diff)$/m);
    expect(doc).toMatch(/^~~~/m);
    expect(doc).toMatch(/^````markdown$/m);
    expect(doc).toMatch(/^\| :--- \| --- \| ---: \|$/m);
    expect(doc).toMatch(/^> \*\*Note\*\*/m);
    expect(doc).toContain('`');
    expect(doc).toMatch(/\[[^\]]+\]\(https:/);
    expect(doc).toMatch(/[\u{1F300}-\u{1FAFF}]/u);
    expect(doc).toContain('é');
  });

  it('cuts into chunks that rejoin to the text, at arbitrary points but never inside a surrogate pair', () => {
    const doc = markdownDocument(30);
    const chunks = markdownChunks(doc, 30);
    expect(chunks.join('')).toBe(doc);
    expect(markdownChunks(doc, 30)).toEqual(chunks);
    const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
    expect(chunks.every((c) => !isHigh(c.charCodeAt(c.length - 1)))).toBe(true);
    // Boundaries land mid-line, not only at line ends.
    expect(chunks.filter((c) => !c.endsWith('\n')).length).toBeGreaterThan(chunks.length / 2);
    // Some boundary sits right before or after a non-ASCII character.
    expect(chunks.some((c) => c.charCodeAt(0) > 127 || c.charCodeAt(c.length - 1) > 127)).toBe(true);
  });
});

describe('/markdown dense profile', () => {
  it('is sections of about 170 bytes, each a heading, a paragraph with inline code and a link, a list, a code block and a three-row table', () => {
    const doc = denseMarkdownDocument(100);
    expect(denseMarkdownDocument(100)).toBe(doc);
    expect(doc.length).toBeGreaterThanOrEqual(100 * 1024 * 0.98);
    expect(doc.length).toBeLessThanOrEqual(100 * 1024 + 512);
    expect(doc.trimEnd().endsWith(MARKDOWN_END)).toBe(true);
    const sections = denseSections(doc.slice(0, doc.lastIndexOf(MARKDOWN_END)).trimEnd());
    const mean = doc.length / sections.length;
    expect(mean).toBeGreaterThan(160);
    expect(mean).toBeLessThan(180);
    for (const s of sections) {
      const blocks = s.split('\n\n');
      expect(blocks).toHaveLength(5);
      expect(blocks[0]).toMatch(/^### \d+ \w+$/);
      expect(blocks[1]).toMatch(/^[^\n]*`\w+`[^\n]*\[\w+\]\(https:\/\/[^)]+\)[^\n]*$/);
      expect(blocks[2]).toMatch(/^- \w+\n- \w+$/);
      expect(blocks[3]).toMatch(/^```(ts|sh|py)\n[^\n]+\n```$/);
      expect(blocks[4]!.split('\n')).toHaveLength(5); // header, delimiter, three rows
      expect(blocks[4]).toMatch(/^\| k \| v \|\n\| - \| - \|(\n\| [^\n]+ \|){3}$/);
    }
  });

  it('cuts into fixed-size chunks that rejoin to the text and never split a surrogate pair', () => {
    const text = `${'a'.repeat(39)}🚀${'b'.repeat(80)}`;
    const chunks = fixedChunks(text, 40);
    expect(chunks.join('')).toBe(text);
    expect(chunks[0]).toBe(`${'a'.repeat(39)}🚀`); // 41 code units rather than half an emoji
    expect(fixedChunks('x'.repeat(100), 40).map((c) => c.length)).toEqual([40, 40, 20]);
  });

  it('streams 40-character chunks by default, and CHARS-sized ones when asked', () => {
    const doc = denseMarkdownDocument(10);
    const dense = markdownTurnChunks({ kb: 10, profile: 'dense' });
    expect(dense.join('')).toBe(doc);
    expect(dense.slice(0, -1).every((c) => c.length === 40)).toBe(true);
    expect(markdownTurnChunks({ kb: 10, profile: 'dense', chars: 200 }).slice(0, -1).every((c) => c.length === 200)).toBe(true);
    expect(markdownTurnChunks({ kb: 10, profile: 'mixed' })).toEqual(markdownChunks(markdownDocument(10), 10));
  });
});

describe('/markdown arguments', () => {
  it('takes KB, RATE, a profile and a chunk size, with defaults when they are left out', () => {
    expect(parseMarkdownArgs('8 200')).toEqual({ kb: 8, rate: 200, profile: 'mixed' });
    expect(parseMarkdownArgs('')).toEqual({ kb: 20, rate: 100, profile: 'mixed' });
    expect(parseMarkdownArgs('5')).toEqual({ kb: 5, rate: 100, profile: 'mixed' });
    expect(parseMarkdownArgs('100 200 dense')).toEqual({ kb: 100, rate: 200, profile: 'dense' });
    expect(parseMarkdownArgs('1024 200 dense 200')).toEqual({ kb: 1024, rate: 200, profile: 'dense', chars: 200 });
  });

  it('explains what is wrong with bad input instead of guessing', () => {
    for (const bad of ['0 10', '-1 10', 'ten 10', '8 0', '8 fast', '2048 10', '8 99999', '1.5 10', '1 2 3', '1 2 sparse', '1 2 dense 0', '1 2 dense 9999', '1 2 dense 40 x']) {
      expect(parseMarkdownArgs(bad)).toMatch(/^Usage: \/markdown KB RATE/);
    }
  });
});

describe('/markdown pacing', () => {
  it('sends every chunk in order, spaced 1/RATE seconds apart', async () => {
    const timer = fakeTimer();
    const { sent, signal } = collect();
    const send = (u: SessionUpdate) => {
      if (u.sessionUpdate === 'agent_message_chunk' && u.content.type === 'text') sent.push({ at: timer.t, text: u.content.text });
      return Promise.resolve();
    };
    await streamMarkdown({ signal, send }, { kb: 4, rate: 50, profile: 'mixed' }, timer);
    expect(sent.map((s) => s.text)).toEqual(markdownChunks(markdownDocument(4), 4));
    sent.forEach((s, i) => expect(s.at).toBeCloseTo(i * 20, 6));
  });

  it('stamps the last chunk, and only it, with its wall-clock send time', async () => {
    const timer = fakeTimer();
    const { signal } = collect();
    const metas: unknown[] = [];
    const send = (u: SessionUpdate) => {
      if (u.sessionUpdate === 'agent_message_chunk') metas.push(u._meta);
      return Promise.resolve();
    };
    await streamMarkdown({ signal, send }, { kb: 2, rate: 100, profile: 'dense' }, timer);
    expect(metas.slice(0, -1).every((m) => m === undefined)).toBe(true);
    expect(metas.at(-1)).toEqual({ [SENT_AT_META]: 1_700_000_000_000 + (metas.length - 1) * 10 });
  });

  it('sends chunks that fell due during a late wake-up together, without drifting', async () => {
    const timer = fakeTimer();
    // Every wait oversleeps by 45 ms, as a busy machine might.
    const late: PaceTimer = { now: timer.now, wall: timer.wall, wait: (ms, s) => timer.wait(ms + 45, s) };
    const { sent, signal } = collect();
    const send = (u: SessionUpdate) => {
      if (u.sessionUpdate === 'agent_message_chunk') sent.push({ at: timer.t, text: '' });
      return Promise.resolve();
    };
    await streamMarkdown({ signal, send }, { kb: 2, rate: 100, profile: 'mixed' }, late);
    const last = sent.at(-1)?.at ?? 0;
    // Without catch-up the stream would take (n - 1) * 55 ms.
    expect(last).toBeLessThan((sent.length - 1) * 10 + 60);
    expect(timer.waits.length).toBeLessThan(sent.length / 2);
  });

  it('stops sending once the turn is cancelled', async () => {
    const timer = fakeTimer();
    const abort = new AbortController();
    let count = 0;
    const send = () => {
      if (++count === 5) abort.abort();
      return Promise.resolve();
    };
    await streamMarkdown({ signal: abort.signal, send }, { kb: 4, rate: 100, profile: 'mixed' }, timer);
    expect(count).toBe(5);
  });
});

describe('/markdown through the demo agent process', () => {
  let dataDir: string;
  let agent: DemoAgentProcess | undefined;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'demo-markdown-'));
  });
  afterEach(async () => {
    await agent?.kill();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('streams the document whole, and a usage line for bad arguments', async () => {
    agent = new DemoAgentProcess(dataDir);
    await agent.initialize();
    const sessionId = await agent.newSession('/tmp/project-md');
    expect((await agent.prompt(sessionId, '/markdown 2 2000')).stopReason).toBe('end_turn');
    expect(agent.textOf(sessionId, 'agent_message_chunk')).toBe(markdownDocument(2));
    const dense = await agent.newSession('/tmp/project-md');
    await agent.prompt(dense, '/markdown 2 2000 dense');
    expect(agent.textOf(dense, 'agent_message_chunk')).toBe(denseMarkdownDocument(2));
    const other = await agent.newSession('/tmp/project-md');
    await agent.prompt(other, '/markdown 0 5');
    expect(agent.textOf(other, 'agent_message_chunk')).toMatch(/^Usage: \/markdown KB RATE/);
  });

  it('ends with stopReason cancelled when Stop arrives mid-stream', async () => {
    agent = new DemoAgentProcess(dataDir);
    await agent.initialize();
    const sessionId = await agent.newSession('/tmp/project-md');
    const turn = agent.prompt(sessionId, '/markdown 100 20');
    await agent.waitForUpdate((n) => n.sessionId === sessionId && n.update.sessionUpdate === 'agent_message_chunk');
    await agent.cancel(sessionId);
    expect((await turn).stopReason).toBe('cancelled');
    expect(agent.textOf(sessionId, 'agent_message_chunk').length).toBeLessThan(markdownDocument(100).length);
  });
});
