/**
 * `/hostile`: agent output that would run code, navigate or restyle the window if any of it
 * were treated as HTML. Every place the window shows agent text gets some: the streamed
 * message (Markdown and raw HTML), a thought, a tool call's title and output, a plan entry and
 * the session title. The security e2e spec checks that none of it runs or navigates.
 */
import { randomUUID } from 'node:crypto';
import type { TurnContext } from './turns';

/** Each payload sets `window.__pwned` if it ever runs; its value says which one did. */
export const HOSTILE_MARKDOWN = [
  `# Hostile <script>window.__pwned = 'heading'</script>`,
  '',
  `<script>window.__pwned = 'script'</script>`,
  '',
  `<img src=x onerror="window.__pwned = 'img-onerror'">`,
  '',
  `<iframe src="javascript:parent.__pwned = 'iframe-js'"></iframe>`,
  `<iframe srcdoc="<script>parent.__pwned = 'iframe-srcdoc'</script>"></iframe>`,
  '',
  `<svg xmlns="http://www.w3.org/2000/svg" onload="window.__pwned = 'svg-onload'"><script>window.__pwned = 'svg-script'</script></svg>`,
  '',
  `<style>body { display: none !important; }</style>`,
  `<div id="pwned-overlay" style="position:fixed;inset:0;z-index:99999;background:red">overlay</div>`,
  '',
  `<a href="javascript:window.__pwned = 'html-link'">html javascript link</a>`,
  `<form action="javascript:window.__pwned = 'form'"><button>html form</button></form>`,
  `<meta http-equiv="refresh" content="0; url=https://example.com/">`,
  `<base href="https://example.com/">`,
  `<object data="javascript:window.__pwned = 'object'"></object><embed src="javascript:window.__pwned = 'embed'">`,
  `<details open ontoggle="window.__pwned = 'details-ontoggle'">details</details>`,
  '',
  `[markdown javascript link](javascript:window.__pwned='md-link')`,
  '',
  `[markdown data link](data:text/html;base64,PHNjcmlwdD5wYXJlbnQuX19wd25lZD0nZGF0YSc8L3NjcmlwdD4=)`,
  '',
  `[markdown vbscript link](vbscript:msgbox(1))`,
  '',
  `[markdown entity link](&#106;avascript:window.__pwned='entity-link')`,
  '',
  `[markdown relative link](/?token=stolen)`,
  '',
  `![markdown javascript image](javascript:window.__pwned='md-image')`,
  '',
  `![markdown svg image](data:image/svg+xml;base64,PHN2ZyB4bWxucz0naHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmcnIG9ubG9hZD0nd2luZG93Ll9fcHduZWQ9MSc+PC9zdmc+)`,
  '',
  `Autolinks: <javascript:window.__pwned='autolink'> and <https://example.com/safe-autolink> and www.example.com/gfm`,
  '',
  `[a safe link](https://example.com/docs)`,
  '',
  '```html',
  `<script>window.__pwned = 'fenced'</script>`,
  '```',
  '',
  `Inline \`<img src=x onerror="window.__pwned='inline-code'">\` and the end of the hostile document.`,
].join('\n');

export const HOSTILE_TITLE = `<img src=x onerror="window.__pwned='title'">Hostile`;

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
