// The first time a dialog opens in Jupyter (where its reply separator shows as a heading), offer once a
// session to open dialogs as dialogs by default; "Don't Ask Again" is remembered across sessions.

import * as vscode from 'vscode';
import { config } from '../config';

/** globalState: the user declined the offer for good. */
const DECLINED_KEY = 'dialogNotebook.defaultOfferDeclined';
export const OFFER_TEXT = 'This file is a Solveit dialog. Open dialogs as dialogs by default?';
export const OFFER_YES = 'Open Dialogs as Dialogs';
export const OFFER_NEVER = "Don't Ask Again";

let offered = false;

/** Shows the offer unless it was shown this session or declined for good; `openThis` reopens the file at hand. */
export function offerDefault(context: vscode.ExtensionContext, openThis: () => Thenable<unknown>): void {
  if (offered || context.globalState.get(DECLINED_KEY)) return;
  offered = true;
  void vscode.window.showInformationMessage(OFFER_TEXT, OFFER_YES, OFFER_NEVER).then(async (pick) => {
    if (pick === OFFER_NEVER) await context.globalState.update(DECLINED_KEY, true);
    if (pick !== OFFER_YES) return;
    await config.setOpenDialogsByDefault(true);
    await openThis();
  });
}
