// Answering prompts: the dialog controller (prompts answered, code cells left to the kernel layer), the
// model and key commands, and the model/cost status bar item.

import * as vscode from 'vscode';
import { NOTEBOOK_TYPE } from '../document/cells';
import { cellNote, setCellNote } from '../look/statusBar';
import { log } from '../log';
import { AnswerAllOptions, answerAll } from './answerAll';
import { DialogController } from './controller';
import { ApiKeys } from './keys';
import { PromptRunner } from './promptRunner';
import { forgetNotices, kernelNotices } from './kernelNotices';
import { syncPromptThumbnails } from './promptThumbnails';
import { selectModelCommand } from './selectModel';
import { ModelStatusItem } from './statusItem';
import { ModeStatusItem, selectModeCommand } from './mode';
import { AnswerWarmUp } from './warmUp';

export type { CellRunner } from './cellRunner';

export function registerAnswer(context: vscode.ExtensionContext): DialogController {
  const keys = new ApiKeys(context.secrets);
  const status = new ModelStatusItem();
  const runner = new PromptRunner(keys, (nb, id) => (status.update(), warmUp.answered(nb, id)));
  const warmUp = new AnswerWarmUp((prompt) => runner.prepare(prompt));
  const controller = new DialogController(runner, context.extension.id);
  context.subscriptions.push(
    controller,
    syncPromptThumbnails(controller),
    status,
    warmUp,
    new ModeStatusItem(),
    vscode.commands.registerCommand('dialogNotebook.selectMode', selectModeCommand),
    vscode.commands.registerCommand('dialogNotebook.selectModel', selectModelCommand),
    vscode.commands.registerCommand('dialogNotebook.answerAllPrompts', (arg?: unknown, o?: AnswerAllOptions) => answerAll(controller, false, arg, o)),
    vscode.commands.registerCommand('dialogNotebook.answerPromptsBelow', (arg?: unknown, o?: AnswerAllOptions) => answerAll(controller, true, arg, o)),
    vscode.commands.registerCommand('dialogNotebook.setApiKey', (provider?: unknown, key?: unknown) => keys.setCommand(provider, key)),
    vscode.commands.registerCommand('dialogNotebook.showLog', () => log.show()),
    // What a cell's note says (an answer's wait or failure): the notes live only in the status bar.
    vscode.commands.registerCommand('dialogNotebook.cellNote', (uri?: unknown) => {
      const cell = vscode.workspace.notebookDocuments.flatMap((nb) => nb.getCells()).find((c) => c.document.uri.toString() === String(uri));
      const note = cell && cellNote(cell);
      return note ? { text: note.text, tooltip: note.tooltip } : undefined;
    }),
    // What the Output channel was told once per dialog about its kernel references (for tests).
    vscode.commands.registerCommand('dialogNotebook.kernelNotices', (uri?: unknown) => kernelNotices(String(uri))),
    vscode.workspace.onDidCloseNotebookDocument(forgetNotices),
    // A note is about the cell as it was run: editing it clears the note.
    vscode.workspace.onDidChangeNotebookDocument((e) => {
      if (e.notebook.notebookType !== NOTEBOOK_TYPE) return;
      for (const c of e.cellChanges) if (c.document && cellNote(c.cell)) setCellNote(c.cell, undefined);
    }),
  );
  return controller;
}
