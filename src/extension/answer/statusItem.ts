// The window status bar item of an active dialog: which model answers and what the dialog's answers
// cost (tokens of the last one and the total, from the usage blocks the replies record: seed 004's
// `dialog.cost`). Clicking it runs Select Model.

import * as vscode from 'vscode';
import { Usage, addUsage, dialogCost, usageSummary } from '../../core/answer';
import { Message } from '../../core/model';
import { PROMPT_LANG } from '../document/cells';
import { cellMessage } from '../document/dialogCache';
import { config } from '../config';
import { dialogEditor } from '../commands/target';
import { onDidChangeSessionUsage, sessionUsage } from './sessionUsage';

const tokens = (u: Usage) => (u.cost !== undefined ? usageSummary(u) : `${u.total_tokens.toLocaleString('en-US')} tok`);

/** What the model can read of the web (issue 52): read_url always, web search only where the provider has its own. */
function webLine(model: string): string {
  if (!config.webEnabled) return 'Web: off (`dialogNotebook.web.enabled`); a prompt naming ``&`read_url` `` still gets read_url.';
  const provider = model.slice(0, Math.max(0, model.indexOf(':')));
  return provider === 'anthropic' ? "Web: `read_url` and Anthropic's web search." : `Web: \`read_url\` only: ${provider || 'this provider'} has no web search here.`;
}

/**
 * The prompts only (all the cost reads): no conversion of the other cells and their outputs. Each is the
 * cell's cached message, so an unchanged reply is neither decoded nor its usage parsed again.
 */
function replies(nb: vscode.NotebookDocument): Message[] {
  const out: Message[] = [];
  for (const c of nb.getCells()) if (c.document.languageId === PROMPT_LANG && c.outputs.length) out.push(cellMessage(c));
  return out;
}

export class ModelStatusItem implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('dialogNotebook.model', vscode.StatusBarAlignment.Right, 100);
  private readonly subs: vscode.Disposable[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor() {
    this.item.name = 'Dialog Model';
    this.item.command = 'dialogNotebook.selectModel';
    this.subs.push(
      this.item,
      vscode.window.onDidChangeActiveNotebookEditor(() => this.update()),
      vscode.window.onDidChangeVisibleNotebookEditors(() => this.update()),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (config.affects(e, 'model') || config.affects(e, 'web.enabled')) this.update();
      }),
      // Costs are read from the replies: only cells added or removed and output changes matter, not keystrokes.
      onDidChangeSessionUsage(() => this.update()),
      vscode.workspace.onDidChangeNotebookDocument((e) => {
        if (e.notebook === dialogEditor()?.notebook && (e.contentChanges.length || e.cellChanges.some((c) => c.outputs))) this.schedule();
      }),
    );
    this.update();
  }

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.update(), 500);
  }

  update(): void {
    this.timer = undefined;
    // The active dialog, else a visible one (the Dialog panel may have the focus).
    const nb = dialogEditor()?.notebook;
    if (!nb) return this.item.hide();
    const model = config.model;
    const cost = dialogCost(replies(nb));
    // Ghost text and Edit with AI count in the total (this session only: no reply records them).
    const extra = sessionUsage(nb);
    const total = extra ? addUsage(cost.total, extra) : cost.total;
    this.item.text = cost.last ? `$(hubot) ${model} · last ${tokens(cost.last)} · total ${tokens(total)}` : extra ? `$(hubot) ${model} · total ${tokens(total)}` : `$(hubot) ${model}`;
    this.item.tooltip = new vscode.MarkdownString(
      `**${model}** answers this dialog's prompts (click to select another model).\n\n` +
        (cost.answers
          ? `Last answer: ${tokens(cost.last!)} (in ${cost.last!.prompt_tokens.toLocaleString('en-US')}, out ${cost.last!.completion_tokens.toLocaleString('en-US')}).\n\nDialog total over ${cost.answers} answers: ${tokens(cost.total)}.`
          : 'No reply in this dialog records its usage yet.') +
        (extra ? `\n\nGhost text and Edit with AI this session: ${tokens(extra)} (in the total, not saved in the file).` : '') +
        `\n\n${webLine(model)}`,
    );
    this.item.show();
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.subs.forEach((s) => s.dispose());
  }
}
