import { describe, expect, it } from 'vitest';
import { blockForFile, PromptBlocks, PROMPT_LIMITS, recordOf, refusalFor, utf8Bytes, type LoadedFile, type PromptCapabilities } from './prompt';

const png: LoadedFile = { name: 'a.png', mimeType: 'image/png', bytes: 3, data: 'AAAA' };
const wav: LoadedFile = { name: 'a.wav', mimeType: 'audio/wav', bytes: 3, data: 'AAAA' };
const txt: LoadedFile = { name: 'a b.txt', mimeType: 'text/plain', bytes: 5, text: 'hello' };

const NONE: PromptCapabilities = { image: false, audio: false, embeddedContext: false };
const ALL: PromptCapabilities = { image: true, audio: true, embeddedContext: true };

describe('blockForFile: what a file becomes for the agent’s promptCapabilities', () => {
  it.each([
    ['an image with image', png, { ...NONE, image: true }, 'image'],
    ['an image without image', png, { ...ALL, image: false }, 'does not accept images'],
    ['audio with audio', wav, { ...NONE, audio: true }, 'audio'],
    ['audio without audio', wav, { ...ALL, audio: false }, 'does not accept audio'],
    ['text with embedded context', txt, { ...NONE, embeddedContext: true }, 'resource'],
    ['text without embedded context', txt, { ...ALL, embeddedContext: false }, 'mention a file of the session'],
    ['anything while the agent is not known yet', png, undefined, 'image'],
  ] as const)('%s', (_name, file, caps, expected) => {
    const built = blockForFile(file, caps, 'Demo');
    if ('block' in built) expect(built.block.type).toBe(expected);
    else expect(built.error).toContain(expected);
  });

  it('embeds text under a URI that names the file and says it has no path', () => {
    expect(blockForFile(txt, ALL, 'Demo')).toEqual({
      block: { type: 'resource', resource: { uri: 'attachment:///a%20b.txt', mimeType: 'text/plain', text: 'hello' } },
    });
  });

  it('refuses files over the caps, and binary files that are neither image nor audio', () => {
    expect(blockForFile({ ...png, bytes: PROMPT_LIMITS.binaryBytes + 1 }, ALL, 'Demo')).toEqual({ error: expect.stringContaining('the limit is 5 MB') });
    expect(blockForFile({ ...txt, text: 'x'.repeat(PROMPT_LIMITS.textChars + 1) }, ALL, 'Demo')).toEqual({ error: expect.stringContaining('limited to') });
    expect(blockForFile({ name: 'a.bin', mimeType: 'application/octet-stream', bytes: 3, data: 'AAAA' }, ALL, 'Demo')).toEqual({ error: expect.stringContaining('not a text file') });
  });

  it('never refuses links and mentions (every agent takes resource_link)', () => {
    expect(refusalFor({ type: 'mention', path: 'a' }, NONE, 'Demo')).toBeUndefined();
    expect(refusalFor({ type: 'resource_link', uri: 'file:///a', name: 'a' }, NONE, 'Demo')).toBeUndefined();
  });
});

describe('PromptBlocks', () => {
  it('validates types, base64 and the total size', () => {
    expect(PromptBlocks.safeParse([{ type: 'image', mimeType: 'text/plain', data: 'AAAA' }]).success).toBe(false);
    expect(PromptBlocks.safeParse([{ type: 'image', mimeType: 'image/png', data: 'not base64!' }]).success).toBe(false);
    expect(PromptBlocks.safeParse([{ type: 'image', mimeType: 'image/png', data: 'AAAA', extra: 1 }]).success).toBe(false);
    const big = { type: 'resource', resource: { uri: 'attachment:///a', text: 'x'.repeat(PROMPT_LIMITS.textChars) } };
    expect(PromptBlocks.safeParse(Array.from({ length: 13 }, () => big)).success).toBe(false);
    expect(PromptBlocks.safeParse(Array.from({ length: 12 }, () => big)).success).toBe(true);
    expect(PromptBlocks.safeParse(Array.from({ length: PROMPT_LIMITS.blocks + 1 }, () => ({ type: 'mention', path: 'a' }))).success).toBe(false);
  });
});

describe('recordOf', () => {
  it('keeps a small image as its own thumbnail and a large one without', () => {
    expect(recordOf({ type: 'image', mimeType: 'image/png', data: 'AAAA' })).toMatchObject({ bytes: 3, thumbnail: 'data:image/png;base64,AAAA' });
    expect(recordOf({ type: 'image', mimeType: 'image/png', data: 'A'.repeat(400_000) })).not.toHaveProperty('thumbnail');
  });

  it('counts embedded text in UTF-8 bytes', () => {
    expect(utf8Bytes('aé€😀')).toBe(1 + 2 + 3 + 4);
  });
});
