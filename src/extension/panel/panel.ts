// The Dialog panel host: a webview beside the notebook showing sections, the history preview and the
// reply editor for the prompt under the cursor. It sends `state` snapshots and accepts only messages
// that parse against src/core/panelProtocol.ts; the panel's UI state survives reloads through
// `setState` and a WebviewPanelSerializer.

import * as vscode from 'vscode';
import { HostMessage, PanelMessage, StateMessage, parsePanelMessage, parsePanelState } from '../../shared/panelProtocol';
import { PreviewMode } from '../../core/hist';
import { parts2reply } from '../../core/reply';
import { NOTEBOOK_TYPE, cell2msg, cellLike, cellType } from '../document/cells';
import { applyMessage } from '../editing/edits';
import { cursorCell, dialogEditor, editorOf, selectCells } from '../commands/target';
import { reason } from '../commands/feedback';
import { DEFAULT_BUDGET, cellByRef, emptyState, panelState } from './state';
import { codiconsRoot, panelHtml } from './html';
import { FileRefs } from '../../core/hist';
import { dialogImages } from '../media/dialogMedia';
import { config } from '../config';
import { log } from '../log';
import { modelAim, modelLimits, requestMedia } from '../answer/request';
import { craftFor, knownCraft } from '../craft/cache';

export const PANEL_VIEW_TYPE = 'dialogNotebook.panel';

/** The CSP nonce of the panel's script: 16 random bytes (WebCrypto, in Node and in the browser alike). */
function nonce(): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
}

/** The index of the cell under the cursor of `ed` (as the commands take it, so the History tab previews the prompt Run would answer), or -1. */
const cursorOf = (ed: vscode.NotebookEditor): number => cursorCell(ed)?.index ?? -1;

export class DialogPanel {
  static current: DialogPanel | undefined;
  /** The last `state` sent, for tests and for re-sending on `ready`. */
  lastState: StateMessage;
  /** Messages posted to the webview, newest last (bounded), for tests of the protocol. */
  readonly posted: HostMessage[] = [];
  private nb: vscode.NotebookDocument | undefined;
  private selection = -1;
  private mode: PreviewMode;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly subs: vscode.Disposable[] = [];
  /** The `#ai` files of the dialog at `uri`, read before the history is built (reading is asynchronous). */
  private files: { uri: string; refs: FileRefs } | undefined;
  private preparing = false;
  private disposed = false;
  /** The dialog version (`uri@version`) whose files are read and images prepared. */
  private prepared = '';

  constructor(
    readonly panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    state: unknown,
  ) {
    this.mode = parsePanelState(state).mode;
    this.lastState = emptyState(config.contextBudget(DEFAULT_BUDGET));
    panel.webview.options = {
      enableScripts: true,
      localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media'), codiconsRoot(extensionUri)],
    };
    panel.webview.html = panelHtml(panel.webview, extensionUri, nonce());
    this.track(dialogEditor());
    this.subs.push(
      panel.webview.onDidReceiveMessage((m) => void this.receive(m)),
      panel.onDidDispose(() => this.dispose()),
      vscode.window.onDidChangeActiveNotebookEditor((ed) => {
        if (ed?.notebook.notebookType === NOTEBOOK_TYPE) this.track(ed);
      }),
      // After a reload the panel may be restored before its notebook's editor shows up.
      vscode.window.onDidChangeVisibleNotebookEditors((eds) => {
        if (!this.nb) this.track(eds.find((e) => e.notebook.notebookType === NOTEBOOK_TYPE));
      }),
      vscode.window.onDidChangeNotebookEditorSelection((e) => {
        if (e.notebookEditor.notebook === this.nb) this.schedule(50);
        else if (e.notebookEditor === vscode.window.activeNotebookEditor && e.notebookEditor.notebook.notebookType === NOTEBOOK_TYPE) this.track(e.notebookEditor);
      }),
      vscode.workspace.onDidChangeNotebookDocument((e) => {
        if (e.notebook === this.nb) this.schedule();
      }),
      vscode.workspace.onDidCloseNotebookDocument((nb) => {
        if (nb === this.nb) this.track(undefined);
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (config.affects(e, 'history.maxImagePixels') || config.affects(e, 'history.maxFileBytes')) this.prepared = '';
        if (['contextBudget', 'history.maxImagePixels', 'history.maxFileBytes', 'model', 'contextWindow', 'maxReplyTokens', 'systemPrompt'].some((k) => config.affects(e, k))) this.schedule(0);
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => {
        this.prepared = '';
        this.schedule(0);
      }),
    );
    DialogPanel.current = this;
  }

  private track(ed: vscode.NotebookEditor | undefined): void {
    // The title setter throws on a closed panel, as `panel.webview` does (see post).
    if (this.disposed) return;
    this.nb = ed?.notebook.notebookType === NOTEBOOK_TYPE ? ed.notebook : undefined;
    this.selection = ed ? cursorOf(ed) : -1;
    this.panel.title = this.nb ? `Dialog: ${this.nb.uri.path.split('/').pop()}` : 'Dialog';
    this.schedule(0);
  }

  private schedule(delay = 200): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.disposed) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.update();
    }, delay);
  }

  /** The cursor: the cell of the dialog's editor the commands act on now (the last known one when it is hidden). */
  private cursor(): number {
    const ed = editorOf(this.nb);
    const k = ed ? cursorOf(ed) : -1;
    if (k >= 0) this.selection = k;
    return this.selection;
  }

  /** Builds and sends the state now. */
  update(): StateMessage {
    let s: StateMessage;
    try {
      const files = this.files?.uri === this.nb?.uri.toString() ? this.files?.refs : undefined;
      s = this.nb && !this.nb.isClosed ? panelState(this.nb, this.cursor(), this.mode, config.contextBudget(DEFAULT_BUDGET), { images: dialogImages(this.nb), files }) : emptyState(config.contextBudget(DEFAULT_BUDGET));
    } catch (e) {
      s = { ...emptyState(config.contextBudget(DEFAULT_BUDGET)), historyError: reason(e) };
    }
    this.lastState = s;
    this.post(s);
    void this.prepareMedia();
    void this.loadCraft();
    return s;
  }

  /** Loads the dialog's CRAFT files (read again only when changed); refreshes when they differ from those shown. */
  private async loadCraft(): Promise<void> {
    const nb = this.nb;
    if (!nb || nb.isClosed) return;
    const aim = modelAim(modelLimits());
    const shown = knownCraft(nb, aim);
    try {
      if ((await craftFor(nb, aim)) !== shown && nb === this.nb) this.schedule(0);
    } catch (e) {
      log.warn(`The CRAFT files could not be loaded: ${reason(e)}`);
    }
  }

  /**
   * Reads the dialog's `#ai` files and scales its images down as the model would get them (sharp, where
   * it loads), once per version of the dialog, then refreshes when that found anything.
   */
  private async prepareMedia(): Promise<void> {
    const nb = this.nb;
    if (!nb || nb.isClosed || this.preparing) return;
    const version = nb.version;
    const key = `${nb.uri.toString()}@${version}`;
    if (key === this.prepared) return;
    this.preparing = true;
    const into = dialogImages(nb);
    const before = into.version;
    let readFiles: boolean;
    try {
      const { files } = await requestMedia(nb);
      this.files = { uri: nb.uri.toString(), refs: files };
      readFiles = files.size > 0;
      if (into === dialogImages(nb)) this.prepared = key;
    } finally {
      this.preparing = false;
    }
    // A change that came in meanwhile (an edit, another dialog, a new size) was skipped above: the update this schedules prepares it.
    if (readFiles || into.version !== before || into !== dialogImages(nb) || nb !== this.nb || nb.version !== version) this.schedule(0);
  }

  private post(m: HostMessage): void {
    this.posted.push(m);
    if (this.posted.length > 50) this.posted.shift();
    // Work that ends after the panel closed (image preparation, a settings change) has no one to tell, and
    // `panel.webview` itself throws then.
    if (!this.disposed) void this.panel.webview.postMessage(m);
  }

  /** Handles one message from the webview; anything that does not parse is ignored. */
  async receive(raw: unknown): Promise<void> {
    const m = parsePanelMessage(raw);
    if (!m) return;
    switch (m.type) {
      case 'ready':
        this.update();
        return;
      case 'setMode':
        this.mode = m.mode;
        this.update();
        return;
      case 'reveal': {
        const cell = this.nb && cellByRef(this.nb, m.id);
        if (cell) selectCells(cell.notebook, cell.index);
        return;
      }
      case 'applyReply':
        this.post(await this.applyReply(m));
        this.update();
        return;
    }
  }

  /** Writes edited reply parts back into their prompt as one undoable edit. */
  private async applyReply(m: Extract<PanelMessage, { type: 'applyReply' }>): Promise<HostMessage> {
    const cell = this.nb && cellByRef(this.nb, m.promptId);
    if (!cell || cellType(cellLike(cell)) !== 'prompt') return { type: 'applied', ok: false, message: 'The prompt is gone; nothing was changed.' };
    const msg = cell2msg(cellLike(cell));
    let reply: string;
    try {
      reply = parts2reply(msg, m.parts);
    } catch (e) {
      return { type: 'applied', ok: false, message: `Not applied: ${reason(e)}` };
    }
    msg.output = reply;
    const ok = await applyMessage(cell, msg);
    return ok ? { type: 'applied', ok: true, message: 'Reply updated.' } : { type: 'applied', ok: false, message: 'VS Code refused the edit.' };
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    for (const s of this.subs) s.dispose();
    this.subs.length = 0;
    if (DialogPanel.current === this) DialogPanel.current = undefined;
  }
}

export function showPanel(context: vscode.ExtensionContext): DialogPanel {
  if (DialogPanel.current) {
    DialogPanel.current.panel.reveal(vscode.ViewColumn.Beside, true);
    return DialogPanel.current;
  }
  const panel = vscode.window.createWebviewPanel(PANEL_VIEW_TYPE, 'Dialog', { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true });
  return new DialogPanel(panel, context.extensionUri, undefined);
}

export function registerPanel(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('dialogNotebook.showPanel', () => showPanel(context)),
    vscode.window.registerWebviewPanelSerializer(PANEL_VIEW_TYPE, {
      deserializeWebviewPanel: async (panel, state) => {
        DialogPanel.current?.panel.dispose();
        new DialogPanel(panel, context.extensionUri, state);
      },
    }),
    { dispose: () => DialogPanel.current?.panel.dispose() },
  );
}
