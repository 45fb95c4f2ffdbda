// Answers from a model VS Code offers (`vscode.lm`: Copilot, or extensions that contribute models). Thin:
// the API streams text only and reports no usage, so usage is counted with the model's own tokenizer.

import * as vscode from 'vscode';
import { AnswerError, AnswerEvent, AnswerProvider, AnswerRequest } from './provider';
import { lmTurns } from './vscodeLmWire';

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
    const turns = lmTurns(req);
    const messages = turns.map((t) => (t.role === 'user' ? vscode.LanguageModelChatMessage.User(t.text) : vscode.LanguageModelChatMessage.Assistant(t.text)));
    let reply = '';
    try {
      const response = await this.model.sendRequest(messages, { justification: 'Answer the prompt of a dialog notebook.' }, cts.token);
      for await (const text of response.text) {
        if (signal.aborted) break;
        reply += text;
        yield { type: 'text', text };
      }
    } catch (e) {
      if (!signal.aborted) throw lmError(e);
    } finally {
      signal.removeEventListener('abort', cancel);
      cts.dispose();
    }
    const count = (s: string) => Promise.resolve(this.model.countTokens(s)).catch(() => 0);
    const input = (await Promise.all(turns.map((t) => count(t.text)))).reduce((a, b) => a + b, 0);
    const output = await count(reply);
    yield { type: 'usage', usage: { prompt_tokens: input, completion_tokens: output, total_tokens: input + output } };
    yield { type: 'end', reason: signal.aborted ? 'aborted' : 'stop' };
  }
}

function lmError(e: unknown): AnswerError {
  const message = e instanceof Error ? e.message : String(e);
  if (e instanceof vscode.LanguageModelError) {
    if (e.code === 'NoPermissions') return new AnswerError('auth', `Not allowed to use this model: ${message}`);
    if (e.code === 'NotFound') return new AnswerError('no-model', message);
  }
  return new AnswerError('other', message);
}
