// The canonical chat as an OpenAI Chat Completions request (streaming, usage in the last chunk). Tool
// turns become `tool_calls` and `tool` messages, with the tools the history used declared (any
// arguments) and `tool_choice: none`, which compatible servers need to render the history. The request's
// live tools (kernel functions) are declared with their schemas, and then the model may call.

import type OpenAI from 'openai';
import { Part } from '../../../core';
import { openaiTool } from '../../kernel/hostTools';
import { AnswerRequest } from './provider';
import { wireName } from './wire';

type Params = OpenAI.Chat.ChatCompletionCreateParamsStreaming;
type UserPart = OpenAI.Chat.ChatCompletionContentPart;

function userContent(parts: readonly Part[]): string | UserPart[] {
  const out: UserPart[] = [];
  for (const p of parts) {
    if (p.type === 'input_image') out.push({ type: 'image_url', image_url: { url: p.text } });
    else if (p.type === 'text' || p.type === 'refusal' || p.type === 'server_tool_result' || p.type === 'tool_result') out.push({ type: 'text', text: p.text });
    else if (p.type !== 'thinking' && p.type !== 'tool_use') out.push({ type: 'text', text: `<media-unavailable mime="${p.mime ?? 'unknown'}">not sent: this endpoint takes images only</media-unavailable>` });
  }
  // Plain text as a string: the form every compatible server understands.
  return out.every((p) => p.type === 'text') ? out.map((p) => (p as OpenAI.Chat.ChatCompletionContentPartText).text).join('\n') : out;
}

/** The request body for `req`. */
export function openaiParams(req: AnswerRequest): Params {
  const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [];
  if (req.system) messages.push({ role: 'system', content: req.system });
  const tools = new Set<string>();
  for (const m of req.messages) {
    if (m.role === 'user') messages.push({ role: 'user', content: userContent(m.content) });
    else if (m.role === 'tool') {
      for (const p of m.content) if (p.type === 'tool_result') messages.push({ role: 'tool', tool_call_id: wireName(p.id ?? ''), content: p.text });
    } else {
      const text = m.content.map((p) => (p.type === 'text' || p.type === 'refusal' ? p.text : '')).join('');
      const calls: OpenAI.Chat.ChatCompletionMessageFunctionToolCall[] = [];
      for (const p of m.content) {
        if (p.type !== 'tool_use' || p.server) continue;
        tools.add(wireName(p.name));
        calls.push({ id: wireName(p.id ?? ''), type: 'function', function: { name: wireName(p.name), arguments: JSON.stringify(p.arguments) } });
      }
      const msg: OpenAI.Chat.ChatCompletionAssistantMessageParam = { role: 'assistant', content: text };
      if (calls.length) msg.tool_calls = calls;
      messages.push(msg);
    }
  }
  const params: Params = { model: req.model, messages, max_completion_tokens: req.maxTokens, stream: true, stream_options: { include_usage: true } };
  const live = req.tools ?? [];
  for (const t of live) tools.delete(t.name);
  if (tools.size || live.length) {
    params.tools = [
      ...live.map(openaiTool),
      ...[...tools].map((name) => ({ type: 'function' as const, function: { name, description: 'A tool used earlier in this dialog.', parameters: { type: 'object' } } })),
    ];
    if (!live.length) params.tool_choice = 'none';
  }
  if (req.thinking) params.reasoning_effort = req.thinking.effort;
  return params;
}
