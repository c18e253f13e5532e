/**
 * What the demo agent says about a prompt's blocks beyond its text, so a client's attachments
 * and mentions can be checked end to end: kind, MIME type, size and URI of each.
 */
import type { ContentBlock, PromptCapabilities } from '@agentclientprotocol/sdk';

/** The demo agent takes images and embedded text, not audio: one of each answer of the matrix. */
export const PROMPT_CAPABILITIES: PromptCapabilities = { image: true, embeddedContext: true, audio: false };

export function describeBlocks(blocks: readonly ContentBlock[]): string | undefined {
  const parts = blocks.flatMap((b): string[] => {
    switch (b.type) {
      case 'text':
        return [];
      case 'image':
      case 'audio':
        return [`${b.type} ${b.mimeType} ${base64Bytes(b.data)} bytes`];
      case 'resource':
        return 'text' in b.resource
          ? [`resource ${b.resource.uri} (${b.resource.text.length} characters of text)`]
          : [`resource ${b.resource.uri} (${base64Bytes(b.resource.blob)} bytes)`];
      case 'resource_link':
        return [`resource_link ${b.uri}${b.size == null ? '' : ` (${b.size} bytes)`}`];
      default:
        return [];
    }
  });
  return parts.length === 0 ? undefined : `Received ${parts.join('; ')}.`;
}

function base64Bytes(data: string): number {
  return Buffer.from(data, 'base64').length;
}
