/**
 * What a prompt carries beyond its text: ACP content blocks (`image`, `audio`, `resource` with
 * embedded text, `resource_link`) and `mention`s of files in the session's folder, which the host
 * turns into `resource_link` / `resource` blocks (only it can see the folder). Both sides decide
 * with the same functions what an agent's `promptCapabilities` allow, so the window refuses early
 * and the host refuses what a window did not know about.
 */
import { z } from 'zod';

/** ACP `promptCapabilities` from `initialize`; text and `resource_link` are always allowed. */
export const PromptCapabilities = z.object({
  image: z.boolean().optional(),
  audio: z.boolean().optional(),
  embeddedContext: z.boolean().optional(),
});
export type PromptCapabilities = z.output<typeof PromptCapabilities>;

/** Size caps (decoded bytes for binary data, characters for text). */
export const PROMPT_LIMITS = {
  /** Per image or audio clip. */
  binaryBytes: 5 * 1024 * 1024,
  /** Per attached text file. */
  textChars: 1024 * 1024,
  /** Attachments and mentions in one prompt. */
  blocks: 20,
  /** Everything attached to one prompt, encoded (fits the WebSocket's 16 MB frames with room). */
  totalChars: 12 * 1024 * 1024,
  /** A mentioned file is embedded (when the agent takes embedded context) up to this size. */
  embedMentionBytes: 64 * 1024,
} as const;

const base64Chars = (bytes: number): number => Math.ceil(bytes / 3) * 4;
const Base64 = z
  .string()
  .max(base64Chars(PROMPT_LIMITS.binaryBytes), `larger than ${formatBytes(PROMPT_LIMITS.binaryBytes)}`)
  .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'not base64');
/** A display name: what the chip says. Never sent to the agent on its own. */
const Name = z.string().min(1).max(500);

export const PromptBlock = z.discriminatedUnion('type', [
  z
    .object({
      type: z.literal('image'),
      mimeType: z.string().regex(/^image\/[\w.+-]+$/, 'not an image type'),
      data: Base64,
      name: Name.optional(),
    })
    .strict(),
  z
    .object({
      type: z.literal('audio'),
      mimeType: z.string().regex(/^audio\/[\w.+-]+$/, 'not an audio type'),
      data: Base64,
      name: Name.optional(),
    })
    .strict(),
  z
    .object({
      type: z.literal('resource'),
      resource: z
        .object({
          uri: z.string().min(1).max(4096),
          mimeType: z.string().max(200).optional(),
          text: z.string().max(PROMPT_LIMITS.textChars, `longer than ${PROMPT_LIMITS.textChars} characters`),
        })
        .strict(),
    })
    .strict(),
  z
    .object({
      type: z.literal('resource_link'),
      uri: z.string().min(1).max(4096),
      name: Name,
      mimeType: z.string().max(200).optional(),
      size: z.number().int().nonnegative().optional(),
    })
    .strict(),
  /** A file of the session's folder, by its path relative to the folder (the host resolves it). */
  z.object({ type: z.literal('mention'), path: z.string().min(1).max(4096) }).strict(),
]);
export type PromptBlock = z.output<typeof PromptBlock>;

/** The blocks of one prompt, within the caps. */
export const PromptBlocks = z
  .array(PromptBlock)
  .max(PROMPT_LIMITS.blocks, `at most ${PROMPT_LIMITS.blocks} attachments`)
  .refine((blocks) => encodedChars(blocks) <= PROMPT_LIMITS.totalChars, `attachments larger than ${formatBytes(PROMPT_LIMITS.totalChars)} in all`);

function encodedChars(blocks: readonly PromptBlock[]): number {
  let n = 0;
  for (const b of blocks) n += b.type === 'image' || b.type === 'audio' ? b.data.length : b.type === 'resource' ? b.resource.text.length : 0;
  return n;
}

/**
 * What the transcript keeps of an attachment (in the `user_message` event): enough to show a
 * chip, never the file. An image small enough keeps itself as its thumbnail.
 */
export const AttachmentRecord = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('image'),
    mimeType: z.string(),
    bytes: z.number().int().nonnegative(),
    name: z.string().optional(),
    /** A `data:` URL of the image itself, kept only up to `THUMBNAIL_BYTES`. */
    thumbnail: z.string().optional(),
  }),
  z.object({ type: z.literal('audio'), mimeType: z.string(), bytes: z.number().int().nonnegative(), name: z.string().optional() }),
  z.object({
    type: z.literal('file'),
    name: z.string(),
    uri: z.string(),
    /** How it was sent: its text embedded, a link to it, or (a mention) decided when the turn runs. */
    as: z.enum(['resource', 'resource_link', 'mention']),
    mimeType: z.string().optional(),
    bytes: z.number().int().nonnegative().optional(),
  }),
]);
export type AttachmentRecord = z.output<typeof AttachmentRecord>;

/** Images up to this size are kept whole in the transcript as their own thumbnail. */
export const THUMBNAIL_BYTES = 256 * 1024;

/** Decoded size of base64 data. */
export function base64Bytes(data: string): number {
  const pad = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, (data.length / 4) * 3 - pad);
}

/** The chip an attachment becomes in the transcript. */
export function recordOf(block: PromptBlock, mentionUri?: string): AttachmentRecord {
  switch (block.type) {
    case 'image': {
      const bytes = base64Bytes(block.data);
      return {
        type: 'image',
        mimeType: block.mimeType,
        bytes,
        ...(block.name ? { name: block.name } : {}),
        ...(bytes <= THUMBNAIL_BYTES ? { thumbnail: `data:${block.mimeType};base64,${block.data}` } : {}),
      };
    }
    case 'audio':
      return { type: 'audio', mimeType: block.mimeType, bytes: base64Bytes(block.data), ...(block.name ? { name: block.name } : {}) };
    case 'resource':
      return {
        type: 'file',
        name: nameOfUri(block.resource.uri),
        uri: block.resource.uri,
        as: 'resource',
        ...(block.resource.mimeType ? { mimeType: block.resource.mimeType } : {}),
        bytes: utf8Bytes(block.resource.text),
      };
    case 'resource_link':
      return {
        type: 'file',
        name: block.name,
        uri: block.uri,
        as: 'resource_link',
        ...(block.mimeType ? { mimeType: block.mimeType } : {}),
        ...(block.size !== undefined ? { bytes: block.size } : {}),
      };
    case 'mention':
      return { type: 'file', name: block.path, uri: mentionUri ?? block.path, as: 'mention' };
  }
}

/** UTF-8 length of a string (the shared layer has neither DOM nor Node globals). */
export function utf8Bytes(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/** The last path segment of a URI, decoded: what a chip calls a file. */
export function nameOfUri(uri: string): string {
  const last = uri.replace(/[?#].*$/, '').split('/').filter(Boolean).pop() ?? uri;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

/**
 * Why `agentName` cannot take this block, or undefined. `caps` undefined means not known yet
 * (the agent has not started): nothing is refused then, the host checks again when it sends.
 */
export function refusalFor(block: PromptBlock, caps: PromptCapabilities | undefined, agentName: string): string | undefined {
  if (!caps) return undefined;
  switch (block.type) {
    case 'image':
      return caps.image ? undefined : `${agentName} does not accept images.`;
    case 'audio':
      return caps.audio ? undefined : `${agentName} does not accept audio.`;
    case 'resource':
      return caps.embeddedContext
        ? undefined
        : `${agentName} does not accept attached files (no embedded context); mention a file of the session's folder with @ instead.`;
    case 'resource_link':
    case 'mention':
      return undefined;
  }
}

/** A file the person attached, read by the window: its bytes as base64, or as text. */
export type LoadedFile = { name: string; mimeType: string; bytes: number } & ({ data: string } | { text: string });

/** URI of an attached file that has no path the agent could open (a browser gives none). */
export function attachmentUri(name: string): string {
  return `attachment:///${encodeURIComponent(name)}`;
}

/**
 * The capability matrix for a file the person attached: images and audio as themselves where
 * the agent takes them, text as an embedded `resource` where it takes embedded context; anything
 * else is refused with the reason (a browser file has no path, so it cannot be linked).
 */
export function blockForFile(file: LoadedFile, caps: PromptCapabilities | undefined, agentName: string): { block: PromptBlock } | { error: string } {
  const kind = file.mimeType.startsWith('image/') ? 'image' : file.mimeType.startsWith('audio/') ? 'audio' : 'text';
  if (kind !== 'text') {
    if (!('data' in file)) return { error: `${file.name} could not be read.` };
    if (file.bytes > PROMPT_LIMITS.binaryBytes) return { error: `${file.name} is ${formatBytes(file.bytes)}; the limit is ${formatBytes(PROMPT_LIMITS.binaryBytes)}.` };
    const block: PromptBlock = { type: kind, mimeType: file.mimeType, data: file.data, name: file.name };
    const refused = refusalFor(block, caps, agentName);
    return refused ? { error: refused } : { block };
  }
  if (!('text' in file)) return { error: `${file.name} is not a text file, an image or audio: it cannot be attached.` };
  if (file.text.length > PROMPT_LIMITS.textChars) return { error: `${file.name} is ${formatBytes(file.bytes)}; text files are limited to ${formatBytes(PROMPT_LIMITS.textChars)}.` };
  const block: PromptBlock = {
    type: 'resource',
    resource: { uri: attachmentUri(file.name), mimeType: file.mimeType || 'text/plain', text: file.text },
  };
  const refused = refusalFor(block, caps, agentName);
  return refused ? { error: refused } : { block };
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 102.4) / 10} KB`;
  return `${Math.round(bytes / 104_857.6) / 10} MB`;
}

/** `files:search`: files of the session's folder whose relative path matches `query`. */
export const SearchFiles = z
  .object({
    sessionId: z.uuid(),
    query: z.string().max(1000),
    limit: z.number().int().min(1).max(200).default(50),
  })
  .strict();

export const FileMatches = z.object({
  /** Relative paths, `/`-separated, best match first. */
  paths: z.array(z.string()),
  /** The walk stopped at its cap: some files of the folder were not looked at. */
  truncated: z.boolean(),
});
