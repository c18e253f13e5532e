import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startStandInModel, TOOLS_ANSWER_PREFIX, TOOLS_FOUND_PREFIX, type StandInModel } from './stand-in-model';

const script = { trigger: 'Create notes.txt', folder: '/tmp/session', file: 'notes.txt', content: 'hello\n', finalText: 'Done, notes.txt written.', toolsTrigger: 'Which tools', toolsQuery: 'my-server' };
const writeTool = {
  type: 'function',
  function: { name: 'write_file', parameters: { type: 'object', properties: { file_path: { type: 'string' }, content: { type: 'string' } } } },
};
const asked = [{ role: 'user', content: [{ type: 'text', text: 'Create notes.txt please' }] }];

let model: StandInModel;
beforeEach(async () => {
  model = await startStandInModel(script);
});
afterEach(async () => {
  await model.close();
});

const chat = (body: object) =>
  fetch(`${model.baseUrl}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: model.model, ...body }) });

/** The `data:` payloads of an SSE answer, [DONE] excluded. */
async function events(res: Response): Promise<{ choices: { delta: Record<string, unknown>; finish_reason: string | null }[] }[]> {
  const text = await res.text();
  expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
  return text
    .split('\n\n')
    .filter((block) => block.startsWith('data: ') && block !== 'data: [DONE]')
    .map((block) => JSON.parse(block.slice('data: '.length)));
}

describe('the stand-in OpenAI-compatible model', () => {
  it('listens on loopback only and lists its one model', async () => {
    expect(new URL(model.baseUrl).hostname).toBe('127.0.0.1');
    const res = await fetch(`${model.baseUrl}/models`);
    expect(await res.json()).toMatchObject({ object: 'list', data: [{ id: model.model }] });
  });

  it('calls the write tool with the parameter names the agent declared, then answers once the tool result is in', async () => {
    const first = await (await chat({ stream: false, messages: asked, tools: [writeTool] })).json();
    expect(first.choices[0].finish_reason).toBe('tool_calls');
    const call = first.choices[0].message.tool_calls[0];
    expect(call.function.name).toBe('write_file');
    expect(JSON.parse(call.function.arguments)).toEqual({ file_path: join('/tmp/session', 'notes.txt'), content: 'hello\n' });

    const messages = [...asked, { role: 'assistant', content: null, tool_calls: [call] }, { role: 'tool', tool_call_id: call.id, content: 'ok' }];
    const second = await (await chat({ stream: false, messages, tools: [writeTool] })).json();
    expect(second.choices[0]).toMatchObject({ finish_reason: 'stop', message: { content: script.finalText } });
    expect(model.toolCalls).toHaveLength(1);
  });

  it('streams a tool call whose argument fragments join into the whole arguments', async () => {
    const chunks = await events(await chat({ stream: true, messages: asked, tools: [writeTool] }));
    const fragments = chunks.flatMap((c) => ((c.choices[0]!.delta.tool_calls as { function: { arguments: string } }[] | undefined) ?? []).map((t) => t.function.arguments));
    expect(fragments.length).toBeGreaterThan(1);
    expect(JSON.parse(fragments.join(''))).toEqual({ file_path: '/tmp/session/notes.txt', content: 'hello\n' });
    expect(chunks.at(-1)!.choices[0]!.finish_reason).toBe('tool_calls');
  });

  it('answers side requests (no trigger in the conversation) with plain text and no tool call', async () => {
    const chunks = await events(await chat({ stream: true, messages: [{ role: 'user', content: 'Summarise the title' }], tools: [writeTool] }));
    const text = chunks.map((c) => String(c.choices[0]!.delta.content ?? '')).join('');
    expect(text).toBe('OK');
    expect(model.toolCalls).toHaveLength(0);
    expect(model.requests).toHaveLength(1);
  });

  it('says 404 for routes it does not serve and 400 for a body that is not JSON', async () => {
    expect((await fetch(`${model.baseUrl}/embeddings`, { method: 'POST', body: '{}' })).status).toBe(404);
    expect((await fetch(`${model.baseUrl}/chat/completions`, { method: 'POST', body: 'not json' })).status).toBe(400);
  });

  it('answers the tools question of the latest message with the names of every tool offered, and calls none', async () => {
    const echo = { type: 'function', function: { name: 'mcp__tools__echo', description: 'Returns the text it is given.' } };
    const messages = [...asked, { role: 'assistant', content: 'done' }, { role: 'user', content: 'Which tools do you have?' }];
    const res = await (await chat({ stream: false, messages, tools: [writeTool, echo] })).json();
    expect(res.choices[0]).toMatchObject({ finish_reason: 'stop', message: { content: `${TOOLS_ANSWER_PREFIX} write_file, mcp__tools__echo.` } });
    expect(model.toolCalls).toEqual([]);
  });

  it('asks the agent\'s tool search first where it offers one, then names the tools the search returned', async () => {
    const search = { type: 'function', function: { name: 'tool_search', parameters: { type: 'object', properties: { query: { type: 'string' } } } } };
    const question = [{ role: 'user', content: 'Which tools do you have?' }];
    const first = await (await chat({ stream: false, messages: question, tools: [writeTool, search] })).json();
    const call = first.choices[0].message.tool_calls[0];
    expect(call.function.name).toBe('tool_search');
    expect(JSON.parse(call.function.arguments)).toEqual({ query: 'my-server' });

    const result = '<functions>\n<function>{"name":"mcp__my-server__echo","description":"Echo.","parametersJsonSchema":{"properties":{"name":{"type":"string"}}}}</function>\n</functions>';
    const messages = [...question, { role: 'assistant', content: null, tool_calls: [call] }, { role: 'tool', tool_call_id: call.id, content: [{ type: 'text', text: result }] }];
    const second = await (await chat({ stream: false, messages, tools: [writeTool, search] })).json();
    expect(second.choices[0].message.content).toBe(`${TOOLS_ANSWER_PREFIX} write_file, tool_search. ${TOOLS_FOUND_PREFIX} mcp__my-server__echo.`);
  });
});
