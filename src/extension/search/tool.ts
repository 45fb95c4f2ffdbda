// search_dialogs for the model (the assistant's Use tools, VS Code's agents, MCP): the workspace search as
// a list of dicts, each hit with the dname a follow-up read_msg / view_msg takes.

import { JsonObject, pyRepr } from '../../core';
import type { ToolResult } from '../kernel/hostTools';
import { searchDialogs } from '.';

export async function searchDialogsTool(args: JsonObject): Promise<ToolResult> {
  const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v : undefined);
  const query = str(args.query);
  if (!query) return { ok: false, text: 'Error: search_dialogs needs a query.', printed: '' };
  try {
    const limit = typeof args.limit === 'number' && args.limit > 0 ? Math.min(Math.floor(args.limit), 200) : 20;
    const r = await searchDialogs({ query, kind: str(args.kind), folder: str(args.folder), limit });
    const hits = r.hits.map((h) => ({ dname: h.file.replace(/\.ipynb$/i, ''), id: h.id, kind: h.kind, snippet: h.snippet, score: h.score, ...(h.skipped ? { skipped: true } : {}) }));
    const notes = [r.scanned ? 'the /regex/ form read every message' : '', r.note ?? ''].filter(Boolean);
    const text = hits.length ? pyRepr(hits) : `No message of the workspace's dialogs matches ${JSON.stringify(query)}.`;
    return { ok: true, text: notes.length ? `${text}\n(${notes.join('; ')})` : text, printed: '' };
  } catch (e) {
    return { ok: false, text: `Error: ${e instanceof Error ? e.message : String(e)}`, printed: '' };
  }
}
