// Edit with AI (Solveit's super edit): the selection, or the whole cell, rewritten by an instruction with
// the dialog as context. The proposal streams into a diff beside the cell (the text as it is on the left,
// the proposal on the right, both read-only documents of our own) and nothing changes until Accept,
// which writes it as one edit of the cell's text (one Ctrl+Z in the cell takes it back). Discard, or
// closing the diff, leaves the cell as it was and stops a proposal still streaming. In a prompt's reply
// it works on Edit Reply's document, which a save writes back into the reply.

import * as vscode from 'vscode';
import { cleanRewrite, editRequest } from '../../core/answer';
import { ApiKeys } from '../answer/keys';
import { AnswerError } from '../answer/providers/provider';
import { UPDATE_INTERVAL_MS, UpdateThrottle } from '../answer/throttle';
import { CommandResult, DONE, refuse } from '../commands/feedback';
import { NO_TARGET, resolveCell } from '../commands/target';
import { config } from '../config';
import { log } from '../log';
import { markBusy } from '../editing/busyCells';
import { askInline } from './request';
import { InlineTarget, inlineTarget } from './target';

export const AI_EDIT_SCHEME = 'dialog-ai-edit';
/** True while a proposal is shown (Accept and Discard apply). */
const SHOWN_KEY = 'dialogNotebook.aiEditShown';

/** What Edit with AI ended with, for scripts and tests (`executeCommand` returns it). */
export interface AIEditResult extends CommandResult {
  /** The proposal as it was when the command returned (streamed in full unless discarded or failed). */
  proposal?: string;
  /** Its diff's right side. */
  uri?: string;
}

interface Session {
  id: number;
  target: InlineTarget;
  /** The text replaced: the selection, or the whole cell. */
  range: vscode.Range;
  selected: string;
  /** The document's text when asked: the diff's left side. */
  original: string;
  /** The rewrite of `selected` so far. */
  rewrite: string;
  streaming: boolean;
  ac: AbortController;
  uris: { original: vscode.Uri; proposal: vscode.Uri };
  /** Ends the cell's busy mark: while a proposal is open, a merge of outside changes leaves the cell alone. */
  idle: () => void;
}

/** What the proposal document shows: the document with the range replaced by the rewrite. */
const proposed = (s: Session) => s.original.slice(0, s.target.doc.offsetAt(s.range.start)) + s.rewrite + s.original.slice(s.target.doc.offsetAt(s.range.end));

const argInstruction = (arg: unknown): string | undefined => (arg && typeof arg === 'object' && typeof (arg as { instruction?: unknown }).instruction === 'string' ? (arg as { instruction: string }).instruction : undefined);

export class EditWithAI implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private session: Session | undefined;
  private next = 0;
  private readonly subs: vscode.Disposable[];

  constructor(private readonly keys: ApiKeys) {
    this.subs = [
      this.changed,
      vscode.workspace.registerTextDocumentContentProvider(AI_EDIT_SCHEME, this),
      vscode.commands.registerCommand('dialogNotebook.editWithAI', (arg?: unknown) => this.edit(arg)),
      vscode.commands.registerCommand('dialogNotebook.acceptAIEdit', () => this.accept()),
      vscode.commands.registerCommand('dialogNotebook.discardAIEdit', () => this.discard('discarded')),
      // Closing the diff is a Discard.
      vscode.window.tabGroups.onDidChangeTabs((e) => {
        const s = this.session;
        if (s && e.closed.some((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.toString() === s.uris.proposal.toString())) this.discard('its diff was closed');
      }),
    ];
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const s = this.session;
    if (!s || uri.query !== String(s.id)) return '';
    return uri.fragment === 'original' ? s.original : proposed(s);
  }

  /** The cell text (or reply document) and range to rewrite: the active editor's selection, else the selected cell. */
  private target(): { target: InlineTarget; range: vscode.Range } | undefined {
    const ed = vscode.window.activeTextEditor;
    const t = ed && inlineTarget(ed.document);
    if (ed && t) {
      const doc = ed.document;
      const range = ed.selection.isEmpty ? new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)) : ed.selection;
      return { target: t, range };
    }
    const cell = resolveCell();
    const c = cell && inlineTarget(cell.document);
    if (!c) return undefined;
    return { target: c, range: new vscode.Range(c.doc.positionAt(0), c.doc.positionAt(c.doc.getText().length)) };
  }

  /** Dialog: Edit with AI…: asks for the instruction (or takes `{instruction}`), then streams the proposal into a diff. */
  private async edit(arg?: unknown): Promise<AIEditResult> {
    const found = this.target();
    if (!found) return refuse(`${NO_TARGET} Edit with AI rewrites the selection, or the whole cell, of a code cell, note, prompt or Edit Reply document.`);
    let instruction = argInstruction(arg);
    if (instruction === undefined) {
      instruction = await vscode.window.showInputBox({ title: 'Dialog: Edit with AI', prompt: 'How should the text change? The dialog so far is sent as context.', placeHolder: 'e.g. add type hints; make it shorter; fix the typos' });
      if (instruction === undefined) return { ok: false, message: 'cancelled' };
    }
    instruction = instruction.trim();
    if (!instruction) return refuse('Edit with AI needs an instruction: say how the text should change.');
    if (this.session) this.discard('a new Edit with AI');

    const { target, range } = found;
    const doc = target.doc;
    const original = doc.getText();
    const id = ++this.next;
    const base = vscode.Uri.from({ scheme: AI_EDIT_SCHEME, path: `/${target.what.kind} ${target.cell.index + 1}`, query: String(id) });
    const s: Session = {
      id, target, range, original, selected: doc.getText(range), rewrite: '', streaming: true, ac: new AbortController(),
      uris: { original: base.with({ fragment: 'original' }), proposal: base.with({ fragment: 'proposal' }) },
      idle: markBusy(target.cell),
    };
    this.session = s;
    await this.show(s, instruction);

    const offset = { start: doc.offsetAt(range.start), end: doc.offsetAt(range.end) };
    const request = editRequest(target.what, { before: original.slice(0, offset.start), selected: s.selected, after: original.slice(offset.end) }, instruction);
    const throttle = new UpdateThrottle(() => this.changed.fire(s.uris.proposal), UPDATE_INTERVAL_MS);
    try {
      const answer = await askInline(this.keys, target, { request, model: config.ghostTextModel, maxContextTokens: Number.MAX_SAFE_INTEGER, replyTokens: config.maxReplyTokens }, s.ac.signal, (text) => {
        s.rewrite = text;
        throttle.mark();
      });
      await throttle.finish();
      if (this.session !== s || answer.aborted) return { ok: false, message: 'discarded', proposal: proposed(s) };
      s.rewrite = cleanRewrite(answer.text, s.selected);
      s.streaming = false;
      this.changed.fire(s.uris.proposal);
      log.info(`Edit with AI (${answer.summary}): a proposal of ${s.rewrite.length} characters for ${s.selected.length}`);
      void vscode.window.showInformationMessage('Edit with AI: the proposal is beside the cell.', 'Accept', 'Discard').then((pick) => {
        if (this.session !== s) return;
        if (pick === 'Accept') void this.accept();
        else if (pick === 'Discard') this.discard('discarded');
      });
      return { ok: true, message: '', proposal: proposed(s), uri: s.uris.proposal.toString() };
    } catch (e) {
      await throttle.finish();
      const err = e instanceof AnswerError ? e : new AnswerError('other', e instanceof Error ? e.message : String(e));
      log.error(`Edit with AI failed (${err.kind}${err.status ? ` ${err.status}` : ''}): ${err.message}`);
      if (this.session === s) this.discard('it failed');
      const fixes = err.kind === 'no-key' || err.kind === 'auth' ? ['Set API Key'] : err.kind === 'no-model' ? ['Select Model'] : ['Show Log'];
      void vscode.window.showErrorMessage(`Edit with AI failed: ${err.message} The cell was not changed.`, ...fixes).then((pick) => {
        const command = pick === 'Set API Key' ? 'dialogNotebook.setApiKey' : pick === 'Select Model' ? 'dialogNotebook.selectModel' : pick === 'Show Log' ? 'dialogNotebook.showLog' : undefined;
        if (command) void vscode.commands.executeCommand(command);
      });
      return { ok: false, message: err.message };
    }
  }

  /** Opens the diff beside the cell, both sides in the text's language. */
  private async show(s: Session, instruction: string): Promise<void> {
    const lang = s.target.doc.languageId;
    for (const uri of [s.uris.original, s.uris.proposal]) {
      const d = await vscode.workspace.openTextDocument(uri);
      if (d.languageId !== lang) await vscode.languages.setTextDocumentLanguage(d, lang).then(undefined, () => undefined);
    }
    const title = `Edit with AI: ${instruction.length > 40 ? `${instruction.slice(0, 39)}…` : instruction}`;
    await vscode.commands.executeCommand('vscode.diff', s.uris.original, s.uris.proposal, title, { viewColumn: vscode.ViewColumn.Beside, preview: true, preserveFocus: false });
    void vscode.commands.executeCommand('setContext', SHOWN_KEY, true);
  }

  /** Accept: the proposal replaces the text as one edit (one undo step), if the text is still what it was. */
  private async accept(): Promise<CommandResult> {
    const s = this.session;
    if (!s) return refuse('There is no Edit with AI proposal to accept.');
    if (s.streaming) return refuse('The proposal is still coming in: wait for it, or Discard.');
    const doc = s.target.doc;
    if (doc.isClosed || doc.getText() !== s.original) {
      this.discard('its text changed');
      return refuse('The text changed since the proposal was asked for, so it was not applied: run Edit with AI again.');
    }
    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri, s.range, s.rewrite);
    // The cell stays the proposal's until its text is in: a change from disk that waited for it then sees it.
    const ok = await vscode.workspace.applyEdit(edit);
    this.end(s);
    if (!ok) return refuse('VS Code refused the edit: the text was not changed.');
    log.info(`Edit with AI accepted: ${s.selected.length} characters replaced by ${s.rewrite.length}`);
    await this.closeDiff(s);
    await this.reveal(s);
    return DONE;
  }

  /** Discard: the text stays as it is; a proposal still streaming is stopped. */
  private discard(why: string): CommandResult {
    const s = this.session;
    if (!s) return { ok: false, message: 'There is no Edit with AI proposal.' };
    if (s.streaming) s.ac.abort();
    log.info(`Edit with AI proposal dropped (${why})`);
    this.end(s);
    void this.closeDiff(s);
    return DONE;
  }

  private end(s: Session): void {
    s.idle();
    if (this.session !== s) return;
    this.session = undefined;
    s.streaming = false;
    void vscode.commands.executeCommand('setContext', SHOWN_KEY, false);
  }

  private async closeDiff(s: Session): Promise<void> {
    const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.toString() === s.uris.proposal.toString());
    if (tabs.length) await vscode.window.tabGroups.close(tabs).then(undefined, () => undefined);
  }

  /** Back to the edited text, its cursor after the rewrite. */
  private async reveal(s: Session): Promise<void> {
    const doc = s.target.doc;
    if (doc.uri.scheme !== 'vscode-notebook-cell') {
      await vscode.window.showTextDocument(doc).then(undefined, () => undefined);
      return;
    }
    const cell = s.target.cell;
    if (cell.index < 0) return;
    await vscode.window.showNotebookDocument(cell.notebook, { selections: [new vscode.NotebookRange(cell.index, cell.index + 1)] }).then(undefined, () => undefined);
  }

  dispose(): void {
    if (this.session) this.discard('closing');
    this.subs.forEach((s) => s.dispose());
  }
}
