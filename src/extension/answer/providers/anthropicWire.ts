// The canonical chat as an Anthropic Messages request (streaming). Only the request's tools (kernel
// functions) are declared, with their schemas: the history's calls of them are `tool_use` /
// `tool_result` blocks, calls of any other tool go as text (offeredHistory), since the API refuses tool
// blocks of undeclared tools. `toolChoice: 'none'` (the round limit) keeps the tools declared, uncallable.

import type Anthropic from '@anthropic-ai/sdk';
import { DATA_URL, MediaPart, Part } from '../../../core';
import { anthropicTool } from '../../kernel/hostTools';
import { AnswerRequest } from './provider';
import { offeredHistory, wireName } from './wire';

type Block = Anthropic.ContentBlockParam;
/** The server-side web search offered with `webSearch` (a few searches per round at most: each costs). */
export const WEB_SEARCH_TOOL: Anthropic.WebSearchTool20250305 = { type: 'web_search_20250305', name: 'web_search', max_uses: 5 };
const IMAGE_MIMES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

function mediaBlock(p: MediaPart): Block {
  const data = DATA_URL.exec(p.text);
  const mime = p.mime ?? data?.[1] ?? '';
  if (p.type === 'input_image' && IMAGE_MIMES.has(mime)) {
    const source: Anthropic.ImageBlockParam['source'] = data
      ? { type: 'base64', media_type: mime as Anthropic.Base64ImageSource['media_type'], data: data[2] }
      : { type: 'url', url: p.text };
    return { type: 'image', source };
  }
  // Media the API does not take as such (audio, video, other image types): the model is told, not sent.
  return { type: 'text', text: `<media-unavailable mime="${mime || 'unknown'}">not sent: this model takes images of ${[...IMAGE_MIMES].join(', ')} only</media-unavailable>` };
}

function blocks(parts: readonly Part[]): Block[] {
  const out: Block[] = [];
  for (const p of parts) {
    switch (p.type) {
      case 'text':
      case 'refusal':
      case 'server_tool_result':
        // The API refuses empty or blank text blocks.
        if (p.text.trim()) out.push({ type: 'text', text: p.text });
        break;
      case 'tool_use':
        if (!p.server) out.push({ type: 'tool_use', id: wireName(p.id ?? ''), name: wireName(p.name), input: p.arguments });
        break;
      case 'tool_result':
        out.push({ type: 'tool_result', tool_use_id: wireName(p.id ?? ''), content: p.text });
        break;
      case 'thinking':
        break; // unsigned thinking cannot be sent back; dlg2chat never yields it anyway
      default:
        out.push(mediaBlock(p));
    }
  }
  return out;
}

/** The request body (without `stream`) for `req`. */
export function anthropicParams(req: AnswerRequest): Anthropic.MessageCreateParamsNonStreaming {
  const messages: Anthropic.MessageParam[] = [];
  const live = req.tools ?? [];
  for (const m of offeredHistory(req.messages, live)) {
    // Tool results travel in user turns; consecutive same-role turns are merged, as the API would.
    const role = m.role === 'assistant' ? 'assistant' : 'user';
    const content = blocks(m.content);
    const prev = messages[messages.length - 1];
    if (prev?.role === role) (prev.content as Block[]).push(...content);
    else messages.push({ role, content });
  }
  for (const m of messages) if (!(m.content as Block[]).length) m.content = [{ type: 'text', text: '.' }];
  const params: Anthropic.MessageCreateParamsNonStreaming = { model: req.model, max_tokens: req.maxTokens, messages };
  if (req.system) params.system = req.system;
  const tools: Anthropic.ToolUnion[] = live.map((t) => anthropicTool(t) as Anthropic.Tool);
  // Anthropic's own web search runs on its servers: its calls come back as `server_tool_use` blocks.
  if (req.webSearch) tools.push(WEB_SEARCH_TOOL);
  if (tools.length) {
    params.tools = tools;
    if (req.toolChoice === 'none') params.tool_choice = { type: 'none' };
  }
  return withThinking(params, req);
}

/** Extended thinking on: `budget_tokens`, with `max_tokens` raised so the budget and the answer both fit. */
function withThinking(params: Anthropic.MessageCreateParamsNonStreaming, req: AnswerRequest): Anthropic.MessageCreateParamsNonStreaming {
  if (!req.thinking) return params;
  const budget = req.thinking.budgetTokens;
  return { ...params, thinking: { type: 'enabled', budget_tokens: budget }, max_tokens: budget + req.maxTokens };
}
