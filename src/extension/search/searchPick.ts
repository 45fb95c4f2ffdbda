// "Dialog: Search All Dialogs…": a quick pick searching every dialog of the workspace as you type, hits
// grouped by dialog and labelled by what they are; Enter opens the dialog at the message.

import * as vscode from 'vscode';
import { SearchHit, SearchKind, SearchQuery, matchedWords, parseQuery } from '../../core/search';
import { openDialogAt } from '../fork/openAt';
import { SearchService, keyUri } from './searchService';

/** What the list shows for each kind of hit. */
const KIND_ICONS: Record<SearchKind, string> = { prompt: 'comment', reply: 'sparkle', code: 'code', output: 'output', note: 'markdown', raw: 'file-code' };
/** Typing pauses this long before a search runs. */
const TYPE_SETTLE_MS = 60;
const LIMIT = 100;

interface HitItem extends vscode.QuickPickItem {
  hit?: SearchHit;
}

/**
 * The hits as list rows: a separator per dialog, its hits under it, dialogs in the order of their best hit.
 * A row's label is the words it matched and its detail the snippet: the stable API has no way for an
 * extension to highlight ranges of its own in a quick pick row, but VS Code highlights in each label what the
 * typed text matches, so the words typed are drawn highlighted (when the box holds only words).
 */
export function hitItems(hits: readonly SearchHit[], q: SearchQuery): HitItem[] {
  const byFile = new Map<string, SearchHit[]>();
  for (const h of hits) byFile.set(h.file, [...(byFile.get(h.file) ?? []), h]);
  const items: HitItem[] = [];
  for (const [file, fileHits] of byFile) {
    const name = file.replace(/\.ipynb$/i, '');
    items.push({ label: name, kind: vscode.QuickPickItemKind.Separator });
    for (const h of fileHits) {
      const words = matchedWords(h.snippet, q);
      items.push({
        label: words || h.snippet.text || '(empty)',
        detail: words ? h.snippet.text : undefined,
        // The dialog's name on the row too: while the box holds text VS Code draws no separators.
        description: `${h.kind}${h.skipped ? ' · skipped' : ''} · ${name}`,
        iconPath: new vscode.ThemeIcon(KIND_ICONS[h.kind] ?? 'search'),
        // The engine chose these rows: the quick pick must not filter them again by its own fuzzy match.
        alwaysShow: true,
        hit: h,
      });
    }
  }
  return items;
}

/** Opens the dialog of a hit as a dialog, with the hit's message revealed and selected. */
export async function openHit(hit: Pick<SearchHit, 'file' | 'id'>): Promise<void> {
  const uri = keyUri(hit.file);
  if (!uri) return void vscode.window.showErrorMessage(`Dialog search: ${hit.file} is in no workspace folder of this window any more.`);
  await openDialogAt(uri, -1, hit.id);
}

export async function searchDialogsCommand(service: SearchService, initial = ''): Promise<void> {
  const qp = vscode.window.createQuickPick<HitItem>();
  qp.title = 'Search All Dialogs';
  qp.placeholder = 'Words, "a phrase", -word, kind:reply|prompt|code|output|note, in:folder/, /regex/';
  qp.matchOnDescription = false;
  qp.value = initial;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let seq = 0;
  const run = async () => {
    const mine = ++seq;
    const text = qp.value;
    const q = parseQuery(text);
    if (q.regexError) {
      qp.items = [];
      qp.title = `Search All Dialogs: invalid regex (${q.regexError})`;
      return;
    }
    qp.busy = true;
    const r = await service.search(q, { limit: LIMIT, prefixLast: !/\s$/.test(text) });
    if (mine !== seq) return;
    qp.busy = false;
    const { building, done, total } = service.state;
    qp.title = `Search All Dialogs${r.scanned ? ' (regex: reads every message, slower)' : ''}${building ? ` · indexing ${done} / ${total}` : ''}`;
    qp.items = hitItems(r.hits, q);
  };
  qp.onDidChangeValue(() => {
    clearTimeout(timer);
    timer = setTimeout(() => void run(), TYPE_SETTLE_MS);
  });
  qp.onDidAccept(() => {
    const hit = qp.selectedItems[0]?.hit;
    if (!hit) return;
    qp.hide();
    void openHit(hit);
  });
  qp.onDidHide(() => {
    clearTimeout(timer);
    qp.dispose();
  });
  qp.show();
  if (initial) await run();
}
