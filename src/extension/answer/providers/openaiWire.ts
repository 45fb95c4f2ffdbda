// The canonical chat as an OpenAI Chat Completions request (streaming, usage in the last chunk). Only the
// request's tools (kernel functions) are declared, with their schemas: the history's calls of them are
// `tool_calls` and `tool` messages, calls of any other tool go as text (offeredHistory), since compatible
// servers need a call's tool declared to render it. `toolChoice: 'none'` keeps the tools uncallable. The
// images a tool returned go in a user turn after its results (a tool message holds text only).

import type OpenAI from 'openai';
import { Part } from '../../../core';
import { openaiTool } from '../../kernel/hostTools';
import { AnswerRequest } from './provider';
import { offeredHistory, wireName } from './wire';

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

/** What opens the user turn with the images of the tool results before it. */
export const TOOL_IMAGES = 'The tool results above returned these images:';

const toParts = (c: string | UserPart[]): UserPart[] => (typeof c === 'string' ? [{ type: 'text', text: c }] : c);

/** The request body for `req`. */
export function openaiParams(req: AnswerRequest): Params {
  const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [];
  if (req.system) messages.push({ role: 'system', content: req.system });
  const live = req.tools ?? [];
  for (const m of offeredHistory(req.messages, live)) {
    if (m.role === 'user') messages.push({ role: 'user', content: userContent(m.content) });
    else if (m.role === 'tool') {
      for (const p of m.content) if (p.type === 'tool_result') messages.push({ role: 'tool', tool_call_id: wireName(p.id ?? ''), content: p.text });
      // A tool message carries text only: the images the results brought (read_url's image, a message's
      // pictures) follow as a user turn, so that the model sees them as Anthropic's does.
      const media = m.content.filter((p) => p.type !== 'tool_result');
      if (media.length) messages.push({ role: 'user', content: [{ type: 'text', text: TOOL_IMAGES }, ...toParts(userContent(media))] });
    } else {
      const text = m.content.map((p) => (p.type === 'text' || p.type === 'refusal' ? p.text : '')).join('');
      const calls: OpenAI.Chat.ChatCompletionMessageFunctionToolCall[] = [];
      for (const p of m.content) {
        if (p.type !== 'tool_use' || p.server) continue;
        calls.push({ id: wireName(p.id ?? ''), type: 'function', function: { name: wireName(p.name), arguments: JSON.stringify(p.arguments) } });
      }
      const msg: OpenAI.Chat.ChatCompletionAssistantMessageParam = { role: 'assistant', content: text };
      if (calls.length) msg.tool_calls = calls;
      messages.push(msg);
    }
  }
  const params: Params = { model: req.model, messages, max_completion_tokens: req.maxTokens, stream: true, stream_options: { include_usage: true } };
  if (live.length) {
    params.tools = live.map(openaiTool);
    if (req.toolChoice === 'none') params.tool_choice = 'none';
  }
  if (req.thinking) params.reasoning_effort = req.thinking.effort;
  return params;
}
