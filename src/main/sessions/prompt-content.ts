import type * as acp from '@agentclientprotocol/sdk';
import { open, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PROMPT_LIMITS, recordOf, refusalFor, type AttachmentRecord, type PromptBlock, type PromptCapabilities } from '../../shared/contract';
import { AppError } from '../../shared/errors';
import { realPathInside } from '../util/inside-folder';

/** What an agent's `initialize` answer says it takes in a prompt; ACP: an absent field means no. */
export function promptCapabilitiesOf(agent: acp.AgentCapabilities): PromptCapabilities {
  const caps = agent.promptCapabilities;
  return { image: caps?.image ?? false, audio: caps?.audio ?? false, embeddedContext: caps?.embeddedContext ?? false };
}

/** A prompt block as accepted: a mention carries the real path it was resolved to. */
export type AcceptedBlock = Exclude<PromptBlock, { type: 'mention' }> | { type: 'mention'; path: string; realPath: string };

/**
 * Checks a prompt's blocks when it is accepted, before anything is stored: every mention must
 * name a file whose real path is inside the session's folder, and what the agent is known not
 * to take is refused. Returns the blocks to carry to the turn and what the transcript shows.
 */
export function acceptBlocks(
  cwd: string,
  blocks: readonly PromptBlock[],
  caps: PromptCapabilities | undefined,
  agentName: string,
): { blocks: AcceptedBlock[]; records: AttachmentRecord[] } {
  const accepted: AcceptedBlock[] = [];
  const records: AttachmentRecord[] = [];
  for (const block of blocks) {
    const refused = refusalFor(block, caps, agentName);
    if (refused) throw new AppError('invalid_request', refused);
    if (block.type === 'mention') {
      const realPath = realPathInside(cwd, block.path);
      if (!realPath) throw new AppError('invalid_request', `@${block.path} is not a file inside the session's folder ${cwd}`);
      accepted.push({ type: 'mention', path: block.path, realPath });
      records.push(recordOf(block, pathToFileURL(realPath).href));
    } else {
      accepted.push(block);
      records.push(recordOf(block));
    }
  }
  return { blocks: accepted, records };
}

/**
 * The ACP prompt for a turn: the text, then each block as the agent's `promptCapabilities`
 * allow (checked again: a prompt accepted before the agent started was not checked). A mention
 * becomes its text embedded as a `resource` when the agent takes embedded context and the file
 * is small UTF-8 text, else a `resource_link` to its real path.
 */
export async function acpPrompt(
  text: string,
  blocks: readonly AcceptedBlock[],
  caps: PromptCapabilities,
  cwd: string,
  agentName: string,
): Promise<acp.ContentBlock[]> {
  const out: acp.ContentBlock[] = text === '' && blocks.length > 0 ? [] : [{ type: 'text', text }];
  for (const block of blocks) {
    if (block.type === 'mention') {
      out.push(await mentionBlock(block, caps, cwd));
      continue;
    }
    const refused = refusalFor(block, caps, agentName);
    if (refused) throw new AppError('invalid_request', refused);
    if (block.type === 'image' || block.type === 'audio') {
      // `name` is Switchboard's, for the chip; ACP blocks have no such field.
      const { name: _name, ...acpBlock } = block;
      out.push(acpBlock);
    } else out.push(block);
  }
  return out;
}

async function mentionBlock(block: { path: string }, caps: PromptCapabilities, cwd: string): Promise<acp.ContentBlock> {
  // Resolved again: the folder may have changed since the prompt was accepted.
  const realPath = realPathInside(cwd, block.path);
  if (!realPath) throw new AppError('invalid_request', `@${block.path} is no longer a file inside the session's folder`);
  const info = await stat(realPath);
  if (!info.isFile()) throw new AppError('invalid_request', `@${block.path} is not a file`);
  const uri = pathToFileURL(realPath).href;
  if (caps.embeddedContext && info.size <= PROMPT_LIMITS.embedMentionBytes) {
    const text = await smallText(realPath, info.size);
    if (text !== undefined) return { type: 'resource', resource: { uri, mimeType: 'text/plain', text } };
  }
  return { type: 'resource_link', uri, name: basename(realPath), size: info.size };
}

/** The file's text if it is UTF-8 without NUL bytes (what agents can read as text). */
async function smallText(path: string, size: number): Promise<string | undefined> {
  const handle = await open(path, 'r');
  try {
    const buf = Buffer.alloc(size);
    const { bytesRead } = await handle.read(buf, 0, size, 0);
    const bytes = buf.subarray(0, bytesRead);
    if (bytes.includes(0)) return undefined;
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      return undefined;
    }
  } finally {
    await handle.close();
  }
}
