// Dialog: Select Model: the editor's language models, the known Anthropic and OpenAI models, or any
// `<provider>:<model id>`; the choice goes into the workspace settings, never into the dialog file.

import * as vscode from 'vscode';
import { config } from '../config';
import { log } from '../log';
import { KNOWN_MODELS, PROVIDERS, modelSetting, parseModel } from './models';

interface ModelItem extends vscode.QuickPickItem {
  setting?: string;
}

async function items(current: string): Promise<ModelItem[]> {
  const mark = (setting: string) => (setting === current ? ' $(check)' : '');
  const lm = await Promise.resolve(vscode.lm.selectChatModels()).then(undefined, () => []);
  const out: ModelItem[] = [];
  if (lm.length) out.push({ label: 'VS Code', kind: vscode.QuickPickItemKind.Separator });
  for (const m of lm) {
    const setting = modelSetting({ provider: 'vscode-lm', model: m.id });
    out.push({ label: `${m.name}${mark(setting)}`, description: `${m.vendor} · ${m.id}`, detail: `${m.maxInputTokens.toLocaleString('en-US')} input tokens`, setting });
  }
  for (const provider of ['anthropic', 'openai'] as const) {
    out.push({ label: provider === 'anthropic' ? 'Anthropic' : 'OpenAI-compatible', kind: vscode.QuickPickItemKind.Separator });
    for (const m of KNOWN_MODELS.filter((k) => k.provider === provider)) {
      const setting = modelSetting(m);
      out.push({ label: `${m.model}${mark(setting)}`, description: setting, detail: `${m.window.toLocaleString('en-US')} input tokens`, setting });
    }
  }
  out.push({ label: '', kind: vscode.QuickPickItemKind.Separator }, { label: 'Other…', description: 'any <provider>:<model id>, e.g. openai:llama3.1 for Ollama' });
  return out;
}

/** Writes `setting` at workspace scope (user scope when no folder is open). */
async function save(setting: string): Promise<void> {
  const target = vscode.workspace.workspaceFolders?.length ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
  await vscode.workspace.getConfiguration('dialogNotebook').update('model', setting, target);
  log.info(`Model: ${setting}`);
}

/** The command; an argument (`anthropic:claude-…`) skips the pick. Returns the setting written, if any. */
export async function selectModelCommand(arg?: unknown): Promise<string | undefined> {
  let setting = typeof arg === 'string' ? arg : undefined;
  if (setting === undefined) {
    const pick = await vscode.window.showQuickPick(items(config.model), { title: 'Dialog: Select Model', placeHolder: `Which model answers prompts (now ${config.model})`, matchOnDescription: true });
    if (!pick) return undefined;
    setting =
      pick.setting ??
      (await vscode.window.showInputBox({
        title: 'Dialog: Select Model',
        prompt: `<provider>:<model id>, provider one of ${PROVIDERS.join(', ')}`,
        value: config.model,
        validateInput: (v) => (parseModel(v) ? undefined : `Write <provider>:<model id>, provider one of ${PROVIDERS.join(', ')}`),
      }));
    if (setting === undefined) return undefined;
  }
  if (!parseModel(setting)) {
    void vscode.window.showErrorMessage(`Not a model: '${setting}'. Write <provider>:<model id>, provider one of ${PROVIDERS.join(', ')}.`);
    return undefined;
  }
  await save(setting.trim());
  return setting.trim();
}
