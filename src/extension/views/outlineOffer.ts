// VS Code's Outline lists a notebook's code cells, and so a dialog's prompts (code cells of the prompt
// language), only with `notebook.outline.showCodeCells` on, which is off by default; no API lets an
// extension add them otherwise. So the first time the user navigates a dialog by its outline (a click in
// Dialog Sections) it offers, once, to turn it on — never on opening, before the user did anything — and
// "Dialog: Show Prompts in the Outline" turns it on at any time.

import * as vscode from 'vscode';
import { config } from '../config';
import { NOTEBOOK_TYPE } from '../document/cells';
import { log } from '../log';

export const SHOW_IN_OUTLINE_COMMAND = 'dialogNotebook.showPromptsInOutline';
const ASKED_KEY = 'dialogNotebook.outlineOfferShown';
const TURN_ON = 'Turn On';

async function turnOn(): Promise<void> {
  await config.setOutlineShowsCodeCells();
  log.info('notebook.outline.showCodeCells turned on: the Outline lists prompts and code');
}

/** Registers the command; returns the offer, made once when the user navigates a dialog by its outline. */
export function registerOutlineOffer(context: vscode.ExtensionContext): () => void {
  // The question waits for an answer as long as it takes: it holds no editor meanwhile (a pending
  // notification that did kept the dialog's every cell alive after it closed).
  const ask = async () => {
    await context.globalState.update(ASKED_KEY, true);
    const a = await vscode.window.showInformationMessage(
      'VS Code\'s Outline lists the prompts of a dialog only with "Notebook › Outline: Show Code Cells" on (off by default). Turn it on?',
      TURN_ON,
      'Not Now',
    );
    if (a === TURN_ON) await turnOn();
  };
  context.subscriptions.push(vscode.commands.registerCommand(SHOW_IN_OUTLINE_COMMAND, turnOn));
  let asked = false;
  return () => {
    if (asked || vscode.window.activeNotebookEditor?.notebook.notebookType !== NOTEBOOK_TYPE || context.globalState.get(ASKED_KEY) || config.outlineShowsCodeCells) return;
    asked = true;
    void ask();
  };
}
