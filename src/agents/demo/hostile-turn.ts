/**
 * `/hostile`: agent output that would run code, navigate or restyle the window if any of it
 * were treated as HTML. Every place the window shows agent text gets some: the streamed
 * message (Markdown and raw HTML), a thought, a tool call's title and output, a plan entry and
 * the session title. The security e2e spec checks that none of it runs or navigates.
 */
import { randomUUID } from 'node:crypto';
import { HOSTILE_MARKDOWN, HOSTILE_TITLE } from './markdown-doc';
import type { TurnContext } from './turns';

export async function hostile(ctx: TurnContext): Promise<void> {
  await ctx.send({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: `<script>window.__pwned='thought'</script> [t](javascript:window.__pwned='thought-link')` } });
  ctx.setTitle(HOSTILE_TITLE);
  await ctx.send({ sessionUpdate: 'session_info_update', title: HOSTILE_TITLE, updatedAt: new Date().toISOString() });
  await ctx.send({
    sessionUpdate: 'plan',
    entries: [{ content: `<img src=x onerror="window.__pwned='plan'"> [p](javascript:window.__pwned='plan-link')`, priority: 'high', status: 'pending' }],
  });
  const toolCallId = `hostile-${randomUUID()}`;
  await ctx.send({ sessionUpdate: 'tool_call', toolCallId, title: `<svg onload="window.__pwned='tool-title'">`, kind: 'read', status: 'pending' });
  await ctx.send({
    sessionUpdate: 'tool_call_update',
    toolCallId,
    status: 'completed',
    content: [{ type: 'content', content: { type: 'text', text: HOSTILE_MARKDOWN } }],
  });
  // Streamed in small pieces, so the window's streaming path (a block parsed while it grows)
  // sees every payload half-written too.
  for (let i = 0; i < HOSTILE_MARKDOWN.length && !ctx.signal.aborted; i += 37) {
    await ctx.send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: HOSTILE_MARKDOWN.slice(i, i + 37) } });
  }
}
