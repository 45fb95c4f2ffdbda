// Message search across the workspace's dialogs (issue 53): the index service, the quick pick, and the
// commands scripts, tests and the tools use.

import * as vscode from 'vscode';
import { SearchKind, markSnippet, parseQuery, normalizeFolder, SEARCH_KINDS } from '../../core/search';
import { log } from '../log';
import { config } from '../config';
import { SearchService } from './searchService';
import { openHit, searchDialogsCommand } from './searchPick';

let service: SearchService | undefined;

/** A hit as data: what `dialogNotebook.search.query` and the tools give. */
export interface SearchHitData {
  file: string;
  id: string;
  kind: SearchKind;
  snippet: string;
  score: number;
  skipped?: boolean;
}

export interface SearchRequest {
  query: string;
  kind?: string;
  folder?: string;
  limit?: number;
}

/** Searches the workspace's dialogs; `kind` and `folder` add to the filters the query holds. */
export async function searchDialogs(req: SearchRequest): Promise<{ hits: SearchHitData[]; scanned: boolean; note?: string }> {
  if (!service) throw new Error('Dialog search is off (dialogNotebook.search.enabled), or there is no workspace folder to search.');
  await service.ready;
  const q = parseQuery(req.query);
  if (q.regexError) throw new Error(`invalid regex: ${q.regexError}`);
  if (req.kind) {
    const k = req.kind.toLowerCase();
    if (!(SEARCH_KINDS as readonly string[]).includes(k)) throw new Error(`kind must be one of ${SEARCH_KINDS.join(', ')}`);
    q.kinds = [k as SearchKind];
  }
  if (req.folder && normalizeFolder(req.folder)) q.folders = [normalizeFolder(req.folder)];
  const r = await service.search(q, { limit: req.limit ?? 20 });
  const { building, done, total } = service.state;
  return {
    hits: r.hits.map((h) => ({ file: h.file, id: h.id, kind: h.kind, snippet: markSnippet(h.snippet), score: Math.round(h.score * 1000) / 1000, ...(h.skipped ? { skipped: true } : {}) })),
    scanned: r.scanned,
    ...(building ? { note: `the index is still being built (${done} of ${total} dialogs read)` } : {}),
  };
}

export function registerSearch(context: vscode.ExtensionContext): void {
  const storage = context.storageUri ?? context.globalStorageUri;
  if (config.searchEnabled && vscode.workspace.workspaceFolders?.length) {
    service = new SearchService(storage, context.extensionUri);
    context.subscriptions.push(service, { dispose: () => (service = undefined) });
  }
  const off = () => vscode.window.showInformationMessage('Dialog search needs a workspace folder and dialogNotebook.search.enabled.');
  context.subscriptions.push(
    vscode.commands.registerCommand('dialogNotebook.searchDialogs', (initial?: unknown) => (service ? searchDialogsCommand(service, typeof initial === 'string' ? initial : '') : off())),
    vscode.commands.registerCommand('dialogNotebook.search.query', async (query: unknown, opts?: Omit<SearchRequest, 'query'>) => (await searchDialogs({ ...(opts ?? {}), query: String(query ?? '') })).hits),
    vscode.commands.registerCommand('dialogNotebook.search.cancelIndexing', () => service?.cancelBuild()),
    // For scripts and tests: what the list's Enter does, and the skipped files as data.
    vscode.commands.registerCommand('dialogNotebook.search.openHit', (hit: { file: string; id: string }) => openHit(hit)),
    vscode.commands.registerCommand('dialogNotebook.search.skipped', async () => (await service?.skippedFiles()) ?? []),
    // Where the index is and which engine holds it; closed and opened again as closing a window and opening a new one do.
    vscode.commands.registerCommand('dialogNotebook.search.indexInfo', async () => service && (await service.ready, { ...service.where, ...service.state })),
    vscode.commands.registerCommand('dialogNotebook.search.closeIndex', async () => service && (await service.close(), { ...service.where })),
    vscode.commands.registerCommand('dialogNotebook.search.reopenIndex', async () => service && (await service.reopen(), { ...service.where, ...service.state })),
    vscode.commands.registerCommand('dialogNotebook.search.showSkipped', async () => {
      const skipped = (await service?.skippedFiles()) ?? [];
      if (!skipped.length) return void vscode.window.showInformationMessage('Dialog search skipped no file.');
      log.info(`Dialog search skipped ${skipped.length} files:\n${skipped.map((s) => `  ${s.file}: ${s.reason}`).join('\n')}`);
      const pick = await vscode.window.showQuickPick(skipped.map((s) => ({ label: s.file, description: s.reason })), { title: `Skipped by dialog search: ${skipped.length}` });
      if (pick) await vscode.commands.executeCommand('vscode.open', vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, pick.label));
    }),
  );
}
