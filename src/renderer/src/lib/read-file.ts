import { formatBytes, PROMPT_LIMITS, type LoadedFile } from '../../../shared/contract';

/** Types a browser gives text files that are not `text/*` (or none at all: `''`). */
const TEXT_TYPES = new Set(['application/json', 'application/xml', 'application/javascript', 'application/x-sh', 'application/toml', 'application/yaml']);

/**
 * Reads a file the person dropped, pasted or picked: images and audio as base64, anything else
 * as UTF-8 text (a binary file is refused). Sizes are checked before reading, so a huge file
 * costs nothing.
 */
export async function readFile(file: File): Promise<LoadedFile | { error: string }> {
  const binary = file.type.startsWith('image/') || file.type.startsWith('audio/');
  const cap = binary ? PROMPT_LIMITS.binaryBytes : PROMPT_LIMITS.textChars;
  if (file.size > cap) return { error: `${file.name} is ${formatBytes(file.size)}; the limit is ${formatBytes(cap)}.` };
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (binary) return { name: file.name, mimeType: file.type, bytes: bytes.length, data: toBase64(bytes) };
  const text = utf8Text(bytes);
  if (text === undefined) return { error: `${file.name} is not a text file, an image or audio: it cannot be attached.` };
  const mimeType = file.type.startsWith('text/') || TEXT_TYPES.has(file.type) ? file.type : 'text/plain';
  return { name: file.name, mimeType, bytes: bytes.length, text };
}

function utf8Text(bytes: Uint8Array): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  // In slices: one spread of a megabyte overflows the call stack.
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
