// Conflict labels on rendered notes (package.json `notebookRenderer` extending VS Code's markdown renderer,
// bundled to dist/conflictLabels.js). A note is drawn by VS Code's own markdown renderer, and a cell's
// status bar shows only while it is selected, so a conflict copy shown rendered looked like any note. Each
// rendered note gets a slot above its text; the slot of a conflict copy says whose version it is, with
// Keep Mine / Keep Theirs / Keep Both. The extension (commands/conflicts.ts) sends the sides of the dialog's
// conflict cells (a cell's own metadata marks only the other side's copy) and settles a clicked choice.

/** The part of VS Code's renderer API (`vscode-notebook-renderer`) this renderer uses. */
interface RendererContext {
  getRenderer(id: string): Promise<{ extendMarkdownIt(f: (md: MarkdownItLike) => void): void } | undefined>;
  postMessage?(message: unknown): void;
  onDidReceiveMessage?(listener: (message: unknown) => void): unknown;
}
interface MarkdownItLike {
  render(src: string, env?: { outputItem?: { metadata?: unknown } }): string;
}

type Side = 'mine' | 'theirs';
const SLOT = 'dialog-conflict-slot';
const CHOICES = [
  ['mine', 'Keep Mine'],
  ['theirs', 'Keep Theirs'],
  ['both', 'Keep Both'],
] as const;

/** The sides of the conflict cells by message id, as the extension last sent them. */
let sides = new Map<string, Side>();

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The note's message id, and its side when its own metadata marks it. */
function cellOf(metadata: unknown): { id?: string; side?: Side } {
  const dialog = (metadata as { dialog?: { id?: unknown; meta?: { dialog_conflict?: { side?: unknown } } } } | undefined)?.dialog;
  const id = typeof dialog?.id === 'string' ? dialog.id : undefined;
  const mark = dialog?.meta?.dialog_conflict?.side;
  return { id, side: mark === 'theirs' ? 'theirs' : mark === 'ours' ? 'mine' : undefined };
}

function label(id: string, side: Side | undefined): string {
  if (!side) return '';
  const what = side === 'theirs' ? 'conflict: theirs — the version on disk (or their branch)' : 'conflict: mine — your version';
  const colour = side === 'theirs' ? 'var(--vscode-merge-incomingHeaderBackground, #40a6ff)' : 'var(--vscode-merge-currentHeaderBackground, #40c8ae)';
  const buttons = CHOICES.map(([how, text]) => `<button data-dialog-keep="${how}" data-dialog-id="${escape(id)}" style="margin-left:6px;cursor:pointer;font-style:normal">${text}</button>`).join('');
  return `<div class="dialog-conflict-label" style="border-left:3px solid ${colour};padding:2px 8px;margin-bottom:6px;color:var(--vscode-editorWarning-foreground);font-style:italic">${what}${buttons}</div>`;
}

/** Fills every rendered note's slot from `sides` (notes are drawn in shadow roots). */
function relabel(): void {
  for (const host of Array.from(document.querySelectorAll('*'))) {
    for (const slot of Array.from(host.shadowRoot?.querySelectorAll(`.${SLOT}`) ?? []) as HTMLElement[]) {
      const id = slot.dataset.dialogMsg ?? '';
      const html = label(id, sides.get(id));
      if (slot.innerHTML !== html) slot.innerHTML = html;
    }
  }
}

export async function activate(ctx: RendererContext): Promise<void> {
  const md = await ctx.getRenderer('vscode.markdown-it-renderer');
  if (!md) return;
  md.extendMarkdownIt((it) => {
    const render = it.render.bind(it);
    it.render = (src, env) => {
      const c = cellOf(env?.outputItem?.metadata);
      if (!c.id) return render(src, env);
      return `<div class="${SLOT}" data-dialog-msg="${escape(c.id)}">${label(c.id, sides.get(c.id) ?? c.side)}</div>${render(src, env)}`;
    };
  });
  ctx.onDidReceiveMessage?.((message) => {
    const m = message as { conflicts?: Record<string, Side> };
    if (!m.conflicts) return;
    sides = new Map(Object.entries(m.conflicts));
    relabel();
  });
  // The note is drawn in a shadow root: the click's real target is on its composed path.
  document.addEventListener(
    'click',
    (e) => {
      const b = e.composedPath().find((n): n is HTMLElement => n instanceof HTMLElement && !!n.dataset.dialogKeep);
      if (!b) return;
      e.preventDefault();
      e.stopPropagation();
      ctx.postMessage?.({ keep: b.dataset.dialogKeep, id: b.dataset.dialogId });
    },
    true,
  );
  ctx.postMessage?.({ ready: true });
}
