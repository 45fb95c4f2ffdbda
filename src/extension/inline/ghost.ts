// Ghost text in the cells of dialogs: an inline completion provider whose request carries the dialog's
// history up to the cell and the cell's text around the cursor. Nothing is sent unasked: Alt+.
// (Dialog: Suggest) asks once; completions while typing only with `dialogNotebook.ghostText.auto`.
// Typing on, moving the cursor, Escape or VS Code's own cancellation aborts the request in flight, and an
// answer that comes after that is dropped. A failure is one line in the log, nothing in the cell.

import * as vscode from 'vscode';
import { cleanCompletion, completionRequest } from '../../core/answer';
import { ApiKeys } from '../answer/keys';
import { AnswerError } from '../answer/providers/provider';
import { config } from '../config';
import { log } from '../log';
import { NOTEBOOK_TYPE } from '../document/cells';
import { askInline } from './request';
import { inlineTarget } from './target';

/** The answer's budget: a completion is a line or a few. */
export const GHOST_MAX_TOKENS = 256;
/** While typing (with `auto`), a request waits this long for the typing to pause. */
const AUTO_DELAY_MS = 400;
/** Set while a request is in flight: Escape then cancels it. */
const PENDING_KEY = 'dialogNotebook.ghostPending';

/** The cells of dialogs (code cells, notes, prompts): a Jupyter notebook's keystrokes never ask us. */
const DIALOG_CELLS: vscode.DocumentFilter = { notebookType: NOTEBOOK_TYPE };
const CELL_SCHEME = 'vscode-notebook-cell';

const sleep = (ms: number, token: vscode.CancellationToken) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(() => (sub.dispose(), resolve()), ms);
    const sub = token.onCancellationRequested(() => (clearTimeout(timer), sub.dispose(), resolve()));
  });

export class GhostText implements vscode.InlineCompletionItemProvider, vscode.Disposable {
  /** The cell document Alt+. asked in; the next request there is an explicit one. */
  private asked: string | undefined;
  /** The request in flight, with the document and cursor it is for. */
  private inflight: { ac: AbortController; doc: vscode.TextDocument; version: number; at: vscode.Position } | undefined;
  private readonly subs: vscode.Disposable[];

  constructor(private readonly keys: ApiKeys) {
    this.subs = [
      vscode.languages.registerInlineCompletionItemProvider(DIALOG_CELLS, this),
      vscode.commands.registerCommand('dialogNotebook.suggest', () => this.suggest()),
      vscode.commands.registerCommand('dialogNotebook.cancelSuggest', () => this.cancel('Escape')),
      // Typing on or moving away: the request is for a text and a place that are gone.
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (this.inflight && e.document === this.inflight.doc && e.document.version !== this.inflight.version) this.cancel('typing');
      }),
      vscode.window.onDidChangeTextEditorSelection((e) => {
        const f = this.inflight;
        if (f && (e.textEditor.document !== f.doc || !e.selections[0]?.active.isEqual(f.at))) this.cancel('the cursor moved');
      }),
      vscode.window.onDidChangeActiveTextEditor((ed) => {
        if (this.inflight && ed?.document !== this.inflight.doc) this.cancel('another editor');
      }),
    ];
  }

  /** Alt+.: a completion at the cursor of the focused cell, now. */
  private async suggest(): Promise<void> {
    const ed = vscode.window.activeTextEditor;
    if (!ed || !inlineTarget(ed.document) || ed.document.uri.scheme !== CELL_SCHEME) {
      void vscode.window.setStatusBarMessage('Ghost text: put the cursor in a cell of a dialog first.', 4000);
      return;
    }
    this.asked = ed.document.uri.toString();
    // The word suggestions VS Code may show while typing would hide the ghost: Alt+. asks for the AI's.
    await vscode.commands.executeCommand('hideSuggestWidget').then(undefined, () => undefined);
    log.info('Ghost text asked for (Alt+.)');
    await vscode.commands.executeCommand('editor.action.inlineSuggest.trigger');
  }

  private cancel(why: string): void {
    const f = this.inflight;
    if (!f) return;
    this.inflight = undefined;
    void vscode.commands.executeCommand('setContext', PENDING_KEY, false);
    if (!f.ac.signal.aborted) {
      log.info(`Ghost text cancelled (${why})`);
      f.ac.abort();
    }
  }

  async provideInlineCompletionItems(doc: vscode.TextDocument, at: vscode.Position, _ctx: vscode.InlineCompletionContext, token: vscode.CancellationToken): Promise<vscode.InlineCompletionItem[] | undefined> {
    const explicit = this.asked === doc.uri.toString();
    this.asked = undefined;
    if (!explicit && !config.ghostTextAuto) return undefined;
    const target = inlineTarget(doc);
    if (!target) return undefined;
    log.debug(`Ghost text requested (${explicit ? 'Alt+.' : 'typing'})`);
    if (!explicit) await sleep(AUTO_DELAY_MS, token);
    if (token.isCancellationRequested) return undefined;

    this.cancel('a new request');
    const ac = new AbortController();
    const version = doc.version;
    this.inflight = { ac, doc, version, at };
    void vscode.commands.executeCommand('setContext', PENDING_KEY, true);
    const sub = token.onCancellationRequested(() => this.inflight?.ac === ac && this.cancel('VS Code cancelled it'));
    const text = doc.getText();
    const offset = doc.offsetAt(at);
    const around = { before: text.slice(0, offset), after: text.slice(offset) };
    try {
      const request = completionRequest(target.what, around);
      const answer = await askInline(this.keys, target, { request, model: config.ghostTextModel, maxContextTokens: config.ghostTextMaxContextTokens, replyTokens: GHOST_MAX_TOKENS }, ac.signal);
      // No late ghost: a request cancelled, or for a text that changed meanwhile, shows nothing.
      if (answer.aborted || token.isCancellationRequested || doc.version !== version) return undefined;
      const insert = cleanCompletion(answer.text, around);
      log.info(`Ghost text (${answer.summary}): ${insert.length} characters`);
      return insert ? [new vscode.InlineCompletionItem(insert, new vscode.Range(at, at))] : undefined;
    } catch (e) {
      if (!ac.signal.aborted) {
        const err = e instanceof AnswerError ? e : new AnswerError('other', e instanceof Error ? e.message : String(e));
        log.error(`Ghost text failed (${err.kind}${err.status ? ` ${err.status}` : ''}): ${err.message}`);
      }
      return undefined;
    } finally {
      sub.dispose();
      if (this.inflight?.ac === ac) {
        this.inflight = undefined;
        void vscode.commands.executeCommand('setContext', PENDING_KEY, false);
      }
    }
  }

  dispose(): void {
    this.cancel('closing');
    this.subs.forEach((s) => s.dispose());
  }
}
