// Answers from a model VS Code offers (`vscode.lm`: Copilot, or extensions that contribute models). Thin:
// the API streams text and tool calls and reports no usage, so usage is counted with the model's own tokenizer.

import * as vscode from 'vscode';
import { AnswerError, AnswerEvent, AnswerProvider, AnswerRequest } from './provider';
import { Json, isJsonObject } from '../../../core';
import { lmToolTurns, lmTurns } from './vscodeLmWire';

export class VscodeLmProvider implements AnswerProvider {
  readonly id = 'vscode-lm';

  constructor(readonly model: vscode.LanguageModelChat) {}

  /** The model `id` names (`dialogNotebook.model` = `vscode-lm:<id>`); throws `no-model` when none. */
  static async select(id: string): Promise<VscodeLmProvider> {
    const [model] = await vscode.lm.selectChatModels({ id });
    if (!model) throw new AnswerError('no-model', `No language model '${id}' is available in VS Code.`);
    return new VscodeLmProvider(model);
  }

  /** The context plan's input limit. */
  get maxInputTokens(): number {
    return this.model.maxInputTokens;
  }

  countTokens(text: string): Thenable<number> {
    return this.model.countTokens(text);
  }

  async *answer(req: AnswerRequest, signal: AbortSignal): AsyncIterable<AnswerEvent> {
    const cts = new vscode.CancellationTokenSource();
    const cancel = () => cts.cancel();
    signal.addEventListener('abort', cancel);
    const { messages, texts } = req.tools?.length ? toolMessages(req) : textMessages(req);
    const options: vscode.LanguageModelChatRequestOptions = { justification: 'Answer the prompt of a dialog notebook.' };
    if (req.tools?.length) options.tools = req.tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.parameters }));
    let reply = '';
    let calls = 0;
    try {
      const response = await this.model.sendRequest(messages, options, cts.token);
      // Without tools, the text stream (as before tools came); with them, the parts.
      const parts: AsyncIterable<unknown> = req.tools?.length ? response.stream : textParts(response.text);
      for await (const part of parts) {
        if (signal.aborted) break;
        if (part instanceof vscode.LanguageModelTextPart) {
          reply += part.value;
          yield { type: 'text', text: part.value };
        } else if (part instanceof vscode.LanguageModelToolCallPart && req.toolChoice !== 'none') {
          // After the last round no call may run (the API has no "none" mode): a call then is dropped.
          calls++;
          reply += JSON.stringify(part.input);
          yield { type: 'tool_use', id: part.callId, name: part.name, arguments: isJsonObject(part.input) ? part.input : { input: part.input as Json } };
        }
      }
    } catch (e) {
      if (!signal.aborted) throw lmError(e);
    } finally {
      signal.removeEventListener('abort', cancel);
      cts.dispose();
    }
    const count = (s: string) => Promise.resolve(this.model.countTokens(s)).catch(() => 0);
    const input = (await Promise.all(texts.map(count))).reduce((a, b) => a + b, 0);
    const output = await count(reply);
    yield { type: 'usage', usage: { prompt_tokens: input, completion_tokens: output, total_tokens: input + output } };
    yield { type: 'end', reason: signal.aborted ? 'aborted' : calls ? 'tool_use' : 'stop' };
  }
}

async function* textParts(text: AsyncIterable<string>): AsyncIterable<vscode.LanguageModelTextPart> {
  for await (const t of text) yield new vscode.LanguageModelTextPart(t);
}

/** The request as text turns (no tools offered), with the texts whose tokens make the input count. */
function textMessages(req: AnswerRequest): { messages: vscode.LanguageModelChatMessage[]; texts: string[] } {
  const turns = lmTurns(req);
  const messages = turns.map((t) => (t.role === 'user' ? vscode.LanguageModelChatMessage.User(t.text) : vscode.LanguageModelChatMessage.Assistant(t.text)));
  return { messages, texts: turns.map((t) => t.text) };
}

/** The request with tool calls and results as the API's parts. */
function toolMessages(req: AnswerRequest): { messages: vscode.LanguageModelChatMessage[]; texts: string[] } {
  const texts: string[] = [];
  const messages = lmToolTurns(req).map((t) => {
    const parts = t.parts.map((p) => {
      texts.push(p.type === 'call' ? JSON.stringify(p.input) : p.text);
      if (p.type === 'text') return new vscode.LanguageModelTextPart(p.text);
      if (p.type === 'call') return new vscode.LanguageModelToolCallPart(p.id, p.name, p.input);
      return new vscode.LanguageModelToolResultPart(p.id, [new vscode.LanguageModelTextPart(p.text)]);
    });
    return t.role === 'user'
      ? vscode.LanguageModelChatMessage.User(parts.filter((p) => !(p instanceof vscode.LanguageModelToolCallPart)) as (vscode.LanguageModelTextPart | vscode.LanguageModelToolResultPart)[])
      : vscode.LanguageModelChatMessage.Assistant(parts.filter((p) => !(p instanceof vscode.LanguageModelToolResultPart)) as (vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart)[]);
  });
  return { messages, texts };
}

function lmError(e: unknown): AnswerError {
  const message = e instanceof Error ? e.message : String(e);
  if (e instanceof vscode.LanguageModelError) {
    if (e.code === 'NoPermissions') return new AnswerError('auth', `Not allowed to use this model: ${message}`);
    if (e.code === 'NotFound') return new AnswerError('no-model', message);
  }
  return new AnswerError('other', message);
}
