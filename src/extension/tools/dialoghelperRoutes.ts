// dialoghelper's routes (AnswerDotAI/dialoghelper 0.2.41, `call_endp`): what each form POST means as a
// call on the open dialog, and the reply dialoghelper reads back. A form carries strings only: each
// field is typed by the dialog tool's own schema (booleans `true`/`false`, integers), `id_` is the
// message id and `dlg_name` the dialog. Routes with a dialog tool go through door.ts (the same code as
// the assistant's tools); the others use the core's model and the Run command. A failure is
// dialoghelper's error form, `{"error": …}`, which raises DialogAPIError in the caller.

import * as vscode from 'vscode';
import { Json, JsonObject, Message, exported, headerLevel, truthy } from '../../core';
import { dialogTool } from '../../core/tools';
import { copyMsgs, planPasteMsgs, splitIds, strDiff, toggleComment } from '../../core/surgery';
import { loadClipboard, storeClipboard } from '../commands/clipboard';
import { applyPlanNow, snapshotDialog } from '../editing/edits';
import { dialogOf } from '../document/dialogCache';
import { cell2msg, cellLike, cellState } from '../document/cells';
import { dialogName } from './dialogTools';
import { listDialogs } from './door';

/** A route's reply: JSON (dialoghelper asked with `Accept: application/json`), or text it reads as is. */
export type RouteReply = { json: Json } | { text: string } | { error: string };

/** What a route may do on this window, given by the server (dialoghelperServer.ts). */
export interface RouteHost {
  /** The dialog the call names (`dlg_name`); opened in the background when it is not open. */
  dialog(): Promise<vscode.NotebookDocument>;
  /** Calls a dialog tool for the kernel's code; the current message is the running cell's (see the server). */
  tool(nb: vscode.NotebookDocument, name: string, args: JsonObject): Promise<{ ok: boolean; text: string; value?: Json }>;
  /** The message calls without an id start from: the running cell, then the one last added or updated. */
  current(nb: vscode.NotebookDocument): string | null;
  /** Queues messages to run as the Run command runs them (the calling cell finishes first). */
  run(nb: vscode.NotebookDocument, ids: string[]): Promise<void>;
  /** The workspace folder the dialogs' names are relative to (Solveit's data root). */
  root(): vscode.Uri | undefined;
}

type Form = URLSearchParams;
type Route = (form: Form, host: RouteHost) => Promise<RouteReply>;

/** Solveit's page in the browser: nothing here can stand in for it. */
const BROWSER = ['add_html_', 'pop_data_blocking_', 'wsx', 'push_data_', 'screenshot_'];
/** Solveit's instance (its dialogs, kernels, search): operations this extension does not have. */
const INSTANCE = ['create_dialog_', 'stop_kernel_', 'load_dialog_', 'rm_dialog_', 'connfiles_', 'search_', 'searches_', 'web_answer_', 'spawn_agent_', 'solveit_docs_'];

/** The form's fields typed as the dialog tool's parameters say (`true`/`1` for booleans, integers as numbers). */
export function toolArgs(tool: string, form: Form, rename: Record<string, string> = {}): JsonObject {
  const props = (dialogTool(tool)?.parameters.properties ?? {}) as Record<string, JsonObject>;
  const args: JsonObject = {};
  for (const [k0, v] of form) {
    if (k0 === 'dlg_name') continue;
    const k = rename[k0] ?? k0;
    const type = props[k]?.type;
    if (type === 'boolean') args[k] = v === 'true' || v === 'True' || v === '1';
    else if (type === 'integer' && /^-?\d+$/.test(v)) args[k] = Number(v);
    else args[k] = v;
  }
  return args;
}

const errorOf = (r: { text: string }): RouteReply => ({ error: r.text.replace(/^Error: /, '') });

/** A route that is one dialog tool call, its result as dialoghelper's reply. */
function toolRoute(tool: string, reply: (value: Json | undefined, form: Form) => RouteReply, prepare: (form: Form) => JsonObject = (f) => toolArgs(tool, f, { id_: 'id' })): Route {
  return async (form, host) => {
    const nb = await host.dialog();
    const r = await host.tool(nb, tool, prepare(form));
    return r.ok ? reply(r.value, form) : errorOf(r);
  };
}

/** The message a call without `id_` means: the current one. */
function idOrCurrent(form: Form, host: RouteHost, nb: vscode.NotebookDocument): string {
  const id = form.get('id_') || host.current(nb);
  if (!id) throw new RouteError('no message is current: pass id');
  return id;
}

/** The message of the open notebook's cell with this id (a clear error when there is none). */
function messageOf(nb: vscode.NotebookDocument, id: string): Message {
  const k = indexOfId(nb, id);
  if (k < 0) throw new RouteError(`no message ${id} in ${dialogName(nb)}`);
  return cell2msg(cellLike(nb.cellAt(k)));
}

const indexOfId = (nb: vscode.NotebookDocument, id: string) => nb.getCells().findIndex((c) => cellState(c).id === id);
const textOf = (nb: vscode.NotebookDocument, id: string) => {
  const k = indexOfId(nb, id);
  return k < 0 ? undefined : nb.cellAt(k).document.getText();
};

/** A route refuses the call with this sentence. */
export class RouteError extends Error {}

const ROUTES: Record<string, Route> = {
  curr_dialog_: toolRoute('curr_dialog', (v) => ({ json: v ?? null })),
  read_msg_: toolRoute(
    'read_msg',
    (v) => ({ json: v ?? null }),
    (form) => {
      const args = toolArgs('read_msg', form, { id_: 'id' });
      // `view_range` is sent as two fields (a list): the first and last line.
      const range = form.getAll('view_range');
      delete args.view_range;
      if (range.length === 2) [args.start_line, args.end_line] = range.map(Number);
      return args;
    },
  ),
  // Read as text and parsed by the caller: `{"msgs": […]}`, or the XML itself with as_xml.
  find_msgs_: toolRoute('find_msgs', (v, form) => (form.get('as_xml') === 'true' ? { text: String(v ?? '') } : { text: JSON.stringify({ msgs: v ?? [] }) }), (form) => toolArgs('find_msgs', form)),
  add_relative_: async (form, host) => {
    const nb = await host.dialog();
    const args = toolArgs('add_msg', form, { id_: 'id' });
    const run = form.get('run') === 'true';
    delete args.run;
    const r = await host.tool(nb, 'add_msg', args);
    if (!r.ok) return errorOf(r);
    if (run) await host.run(nb, [String(r.value)]);
    return { json: { id: r.value ?? null } };
  },
  update_msg_: async (form, host) => {
    const nb = await host.dialog();
    const args = toolArgs('update_msg', form, { id_: 'id' });
    const logChanged = form.get('log_changed') === 'true';
    delete args.log_changed;
    const before = logChanged ? textOf(nb, String(args.id ?? '')) : undefined;
    const r = await host.tool(nb, 'update_msg', args);
    if (!r.ok) return errorOf(r);
    const after = logChanged ? textOf(nb, String(r.value)) : undefined;
    return { json: { id: r.value ?? null, ...(before !== undefined && after !== undefined ? { diff: strDiff(before, after) } : {}) } };
  },
  rm_msg_: toolRoute('del_msgs', (v) => ({ json: { success: 'complete', deleted: v ?? [] } }), (form) => ({ ids: form.get('msid') ?? '' })),
  msg_idx_: async (form, host) => {
    const nb = await host.dialog();
    const id = idOrCurrent(form, host, nb);
    const idx = indexOfId(nb, id);
    return idx < 0 ? { error: `no message ${id} in ${form.get('dlg_name')}` } : { json: { idx } };
  },
  // The toggles are update_msg calls of the flag (an Undo step each).
  toggle_header_collapse_: async (form, host) => {
    const nb = await host.dialog();
    const m = messageOf(nb, idOrCurrent(form, host, nb));
    if (!headerLevel(m)) return { error: `message ${m.id} is not a heading note` };
    const r = await host.tool(nb, 'update_msg', { id: m.id, heading_collapsed: !truthy(m.meta.heading_collapsed) });
    return r.ok ? { text: JSON.stringify({ success: 'complete' }) } : errorOf(r);
  },
  toggle_export_: async (form, host) => {
    const nb = await host.dialog();
    const msgs = splitIds(form.get('ids') ?? '').map((id) => messageOf(nb, id));
    if (!msgs.length) return { error: 'ids must name the messages to toggle' };
    // All follow the first message's new state, as dialoghelper documents.
    const on = !exported(msgs[0]);
    for (const m of msgs) {
      const r = await host.tool(nb, 'update_msg', { id: m.id, exported: on });
      if (!r.ok) return errorOf(r);
    }
    return { json: { success: 'complete', exported: on } };
  },
  // Code messages only: every line commented when any is not, else all uncommented (dialoghelper's rule).
  toggle_comment_: async (form, host) => {
    const nb = await host.dialog();
    const msgs = splitIds(form.get('ids') ?? form.get('id_') ?? '').map((id) => messageOf(nb, id));
    if (!msgs.length) return { error: 'ids must name the messages to toggle' };
    for (const m of msgs.filter((x) => x.msgType === 'code')) {
      const r = await host.tool(nb, 'update_msg', { id: m.id, content: toggleComment(m.content) });
      if (!r.ok) return errorOf(r);
    }
    return { text: JSON.stringify({ success: 'complete' }) };
  },
  // Bookmark n (1-9) is the cell's `bookmark` metadata; setting it takes it from any other message.
  bookmark_: async (form, host) => {
    const nb = await host.dialog();
    const m = messageOf(nb, idOrCurrent(form, host, nb));
    const n = Number(form.get('n'));
    if (!Number.isInteger(n) || n < 1 || n > 9) return { error: 'n must be a bookmark number from 1 to 9' };
    const setting = m.meta.bookmark !== n;
    if (setting) {
      for (const o of dialogOf(nb).messages) {
        if (o.id === m.id || o.meta.bookmark !== n) continue;
        const r = await host.tool(nb, 'update_msg', { id: o.id, mergemeta: { bookmark: null } });
        if (!r.ok) return errorOf(r);
      }
    }
    const r = await host.tool(nb, 'update_msg', { id: m.id, mergemeta: { bookmark: setting ? n : null } });
    return r.ok ? { json: { success: true, id: m.id } } : errorOf(r);
  },
  // The same clipboard as the Copy/Cut/Paste Messages commands; a cut is a del_msgs call (one Undo step).
  msg_clipboard_: async (form, host) => {
    const nb = await host.dialog();
    const ids = splitIds(form.get('ids') ?? '');
    if (!ids.length) return { error: 'ids must name the messages to copy' };
    const cmd = form.get('cmd') ?? 'copy';
    if (cmd !== 'copy' && cmd !== 'cut') return { error: `cmd must be copy or cut, not ${cmd}` };
    ids.forEach((id) => messageOf(nb, id));
    const payload = copyMsgs(snapshotDialog(nb).d, ids);
    if (cmd === 'cut') {
      const r = await host.tool(nb, 'del_msgs', { ids: ids.join(',') });
      if (!r.ok) return errorOf(r);
    }
    await storeClipboard(payload);
    return { text: JSON.stringify({ success: 'complete' }) };
  },
  msg_paste_: async (form, host) => {
    const nb = await host.dialog();
    const payload = await loadClipboard();
    if (!payload) return { error: 'Nothing to paste: copy or cut dialog messages first' };
    const id = idOrCurrent(form, host, nb);
    messageOf(nb, id);
    // Planned when its edit's turn comes: the anchor is found by id where it is then.
    const { planned, why } = await applyPlanNow(nb, (snap) => {
      try {
        const edit = planPasteMsgs(snap.d, payload, form.get('after') === 'false' ? { before: id } : { after: id });
        return { edit, ids: edit.result.map((m) => m.id), error: '' };
      } catch (e) {
        return { ids: [], error: e instanceof Error ? e.message : String(e) }; // a clipboard that holds no messages
      }
    });
    if (planned.error) return { error: planned.error };
    return why ? { error: why } : { json: { success: 'complete', ids: planned.ids } };
  },
  add_runq_: (form, host) => runMsgs(form, host),
  run_msgs_: (form, host) => runMsgs(form, host),
  list_dialogs_: async (form) => {
    const sub = (form.get('subpath') ?? '').replace(/^\/+|\/+$/g, '');
    const depth = Math.max(1, Number(form.get('depth') ?? 1) || 1);
    const out = new Set<string>();
    for (const { name } of await listDialogs()) {
      if (sub && !name.startsWith(sub + '/')) continue;
      const parts = (sub ? name.slice(sub.length + 1) : name).split('/');
      // Folders deeper than `depth` are listed as folders (`/` suffix), as dialoghelper documents.
      out.add(parts.length > depth ? parts.slice(0, depth).join('/') + '/' : parts.join('/'));
    }
    return { json: [...out].sort() };
  },
  realpath_: async (form, host) => {
    const root = host.root();
    if (!root) return { error: 'no workspace folder is open' };
    const sub = (form.get('subpath') ?? '').replace(/^\/+/, '');
    if (sub.split('/').includes('..')) return { error: 'Path traversal not permitted' };
    return { text: vscode.Uri.joinPath(root, sub).fsPath };
  },
};

async function runMsgs(form: Form, host: RouteHost): Promise<RouteReply> {
  const nb = await host.dialog();
  const ids = splitIds(form.get('ids') ?? '');
  if (!ids.length) return { error: 'ids must name the messages to run' };
  const known = new Set(nb.getCells().map((c) => cellState(c).id));
  const missing = ids.filter((id) => !known.has(id));
  if (missing.length) return { error: `no message ${missing.join(', ')} in ${form.get('dlg_name')}` };
  await host.run(nb, ids);
  return { json: { success: 'queued', ids } };
}

/** Answers one route. Unknown and unsupported routes get a sentence saying so, never a hang. */
export async function answerRoute(route: string, form: Form, host: RouteHost): Promise<RouteReply> {
  if (BROWSER.includes(route)) return { error: `${route} is Solveit's browser page; not available in VS Code` };
  if (INSTANCE.includes(route)) return { error: `${route} is an operation of the Solveit instance; not available in VS Code` };
  const r = ROUTES[route];
  if (!r) return { error: `${route} is not a dialoghelper route that VS Code answers (see docs/dialoghelper.md)` };
  try {
    return await r(form, host);
  } catch (e) {
    if (e instanceof RouteError) return { error: e.message };
    throw e;
  }
}
