// The dialog tools the model may call (Solveit's "Use tools": Answer.AI dialoghelper's names and
// parameters, plus Solveit's own `python`). Only the contract is dialoghelper's: names, parameter
// names and defaults, and what each returns; the descriptions are ours. Pure data, no host imports.

import { JsonObject } from '../base/json';

/** How much a call may change: `read` nothing, `edit` the dialog's messages (undoable), `destructive` deletes or runs code. */
export type ToolKind = 'read' | 'edit' | 'destructive';

export interface DialogToolDef {
  name: string;
  description: string;
  /** JSON schema of the keyword arguments. */
  parameters: JsonObject;
  kind: ToolKind;
}

type Prop = JsonObject;
const str = (description: string, dflt?: string | null): Prop => ({ type: 'string', description, ...(dflt !== undefined ? { default: dflt } : {}) });
const int = (description: string, dflt?: number | null): Prop => ({ type: 'integer', description, ...(dflt !== undefined ? { default: dflt } : {}) });
const bool = (description: string, dflt = false): Prop => ({ type: 'boolean', description, default: dflt });
const idOrIds = (description: string): Prop => ({ anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }], description });
const MSG_TYPE = { type: 'string', enum: ['code', 'note', 'prompt', 'raw'] };

function obj(props: Record<string, Prop>, required: string[] = []): JsonObject {
  return { type: 'object', properties: props, required };
}

/** The flags add_msg and update_msg set (dialoghelper's names; o/i_collapsed are the cells' collapsed/hide_input). */
const FLAGS: Record<string, Prop> = {
  output: str("The message's output: a prompt's reply, or a code message's outputs as an .ipynb JSON array"),
  time_run: str('When the message was run (ISO time)'),
  exported: { type: 'boolean', description: 'Mark the message as exported (nbdev export metadata)' },
  skipped: { type: 'boolean', description: 'Hide the message from the AI' },
  pinned: { type: 'boolean', description: 'Pin the message to the context' },
  i_collapsed: { type: 'boolean', description: "Collapse the message's input" },
  o_collapsed: { type: 'boolean', description: "Collapse the message's output" },
  heading_collapsed: { type: 'boolean', description: "Collapse the heading's section" },
};

const EDIT_ID = idOrIds("Id of the message to edit, a list of ids, or 'all' for every message");
const EDIT_OUT = bool("Edit a prompt's reply instead of its content");
const LINE_FILTER = {
  re_filter: str('Only change lines this regex finds a match in'),
  invert_filter: bool('Change the lines re_filter does NOT match instead'),
};
const REPLACE_OPTS = {
  start_line: int('First line (1-based) the replacement may touch'),
  end_line: int('Last line the replacement may touch (negative counts from the end)'),
  n_matches: int('Replace only the first n matches'),
  ...LINE_FILTER,
  use_regex: bool('old_str is a regex and new_str a replacement template (\\1, \\g<name>)'),
  out: EDIT_OUT,
};
const EDIT_NOTE =
  ' Call view_msg first to know the line numbers. Returns a diff of the change, "none: No changes." or "error: …"; for a list of ids (or \'all\'), the [id, result] pairs of the messages changed or failed.';

export const DIALOG_TOOLS: readonly DialogToolDef[] = [
  {
    name: 'curr_dialog',
    kind: 'read',
    description: "The current dialog's name and mode.",
    parameters: obj({ with_messages: bool('Unused; kept for compatibility') }),
  },
  {
    name: 'view_dlg',
    kind: 'read',
    description:
      'A concise XML view of every message of the dialog (optionally of one type), with their ids. Usually the quickest way to see the whole dialog at once (with line numbers when you are about to edit), rather than several find_msgs or view_msg calls.',
    parameters: obj({
      msg_type: { ...MSG_TYPE, description: "Only messages of this type ('code', 'note', 'prompt' or 'raw')" },
      nums: bool('Show line numbers'),
      include_output: bool('Include the outputs of code messages'),
      trunc_out: bool('Cut long outputs to 100 characters, from the middle (with include_output)', true),
      trunc_in: bool('Cut long contents to 80 characters, from the middle'),
      include_skipped: bool('Include the messages hidden from the AI'),
    }),
  },
  {
    name: 'find_msgs',
    kind: 'read',
    description:
      'Messages of the dialog matching a regex and filters, with the messages around them. Messages above the current prompt are already in your context: use this for the others, or to find ids. view_dlg shows the whole dialog at once.',
    parameters: obj({
      re_pattern: str('Regex to search for (dot-all and multi-line); empty matches every message', ''),
      msg_type: { ...MSG_TYPE, description: "Only messages of this type ('code', 'note', 'prompt' or 'raw')" },
      before: int('Also return this many messages before each match (with context=0)', 0),
      after: int('Also return this many messages after each match (with context=0)', 0),
      context: int('Also return this many messages around each match (default 1, or 0 with headers_only)'),
      use_case: bool('Match case-sensitively'),
      use_regex: bool('Treat re_pattern as a regex (else as plain text)', true),
      only_err: bool('Only code messages whose output is an error'),
      only_exp: bool('Only exported messages'),
      only_chg: bool("Only messages new or changed since the dialog file's git HEAD version"),
      ids: str('Only these messages: comma-separated ids', ''),
      limit: int('Return at most this many matches'),
      include_output: bool('Include the outputs', true),
      include_meta: bool("Include the messages' flags and metadata", true),
      as_xml: bool('Return the concise XML of view_dlg instead of a list of dicts'),
      nums: bool('Show line numbers'),
      trunc_out: bool('Cut long outputs to 100 characters, from the middle'),
      trunc_in: bool('Cut long contents to 80 characters, from the middle'),
      headers_only: bool('Only heading notes, their first line only'),
      header_section: str('Only the section under the heading note whose first line is this'),
      include_skipped: bool('Include the messages hidden from the AI'),
    }),
  },
  {
    name: 'read_msg',
    kind: 'read',
    description:
      "One message as a dict (id, msg_type, content, output, flags), by position: n relative to the current message (the prompt being answered, or the message you last added or updated; +ve is downwards), or absolute with relative=false (0 = first, -1 = last). With id and n=0, that message. {'msg': None} when there is none.",
    parameters: obj({
      n: int('Position: relative to the current message (or to id), or absolute with relative=false', -1),
      relative: bool('n is relative to the current message (or to id)', true),
      id: str('The message n is relative to (default: the current message)'),
      start_line: int('First line of the content to return', 1),
      end_line: int('Last line of the content to return (default the last; -1 = the last)'),
      nums: bool('Prefix the content lines with their numbers'),
      lnhashs: bool('Prefix the content lines with `lineno|hash|` addresses'),
    }),
  },
  {
    name: 'view_msg',
    kind: 'read',
    description: "The content of message id, with line numbers (what to call before editing lines). incl_out appends its output in an <out> block.",
    parameters: obj(
      {
        id: str('Id of the message to view'),
        nums: bool('Show line numbers', true),
        lnhashs: bool('Show `lineno|hash|` addresses instead of line numbers'),
        start_line: int('First line to view', 1),
        end_line: int('Last line to view (default the last; -1 = the last)'),
        incl_out: bool("Append the message's output in an <out> block"),
        trunc_out: bool('Cut an included output to about 512 characters', true),
      },
      ['id'],
    ),
  },
  {
    name: 'add_msg',
    kind: 'edit',
    description:
      "Adds a message to the dialog and returns its id. Placement is relative to message id, or to the current message without one (the prompt being answered, then the message you last added or updated, so successive calls without id add in order); 'at_start' and 'at_end' place it in the dialog. The user sees it at once and can undo it.",
    parameters: obj(
      {
        content: str('The content of the message (the note text, code or prompt)'),
        placement: { type: 'string', enum: ['add_after', 'add_before', 'at_start', 'at_end'], default: 'add_after', description: "Where to place the message: 'add_after' / 'add_before' message id (or the current message), 'at_start', 'at_end'" },
        id: str('The message placement is relative to (default: the current message)'),
        msg_type: { ...MSG_TYPE, default: 'note', description: "The type of the message: 'note', 'code', 'prompt' or 'raw'" },
        ...FLAGS,
      },
      ['content'],
    ),
  },
  {
    name: 'update_msg',
    kind: 'edit',
    description:
      'Changes fields of an existing message and returns its id: only the fields given change (content for its text). It becomes the current message.',
    parameters: obj(
      {
        id: str('Id of the message to update'),
        content: str('The new content'),
        msg_type: { ...MSG_TYPE, description: "A new type: 'note', 'code', 'prompt' or 'raw'" },
        ...FLAGS,
        meta: { type: 'object', description: "Replace the message's metadata wholesale" },
        mergemeta: { type: 'object', description: "Deep-merge into the message's metadata; a null value deletes its key" },
      },
      ['id'],
    ),
  },
  {
    name: 'del_msgs',
    kind: 'destructive',
    description:
      'Deletes messages from the dialog (a collapsed heading takes its hidden section with it) and returns the ids deleted. Do not use this unless the user asked you to delete messages. The user is asked first.',
    parameters: obj({ ids: str('Comma-separated ids of the messages to delete') }, ['ids']),
  },
  {
    name: 'msg_str_replace',
    kind: 'edit',
    description: `Replaces old_str by new_str in a message (every match, or the first n_matches).${EDIT_NOTE}`,
    parameters: obj({ id: EDIT_ID, old_str: str('The text to find'), new_str: str('The text to put instead'), ...REPLACE_OPTS }, ['id', 'old_str', 'new_str']),
  },
  {
    name: 'msg_strs_replace',
    kind: 'edit',
    description: `Replaces each of old_strs by the new_strs at the same position, pair by pair, in a message.${EDIT_NOTE}`,
    parameters: obj(
      { id: EDIT_ID, old_strs: { type: 'array', items: { type: 'string' }, description: 'The texts to find' }, new_strs: { type: 'array', items: { type: 'string' }, description: 'The texts to put instead, one per old_strs' }, ...REPLACE_OPTS },
      ['id', 'old_strs', 'new_strs'],
    ),
  },
  {
    name: 'msg_insert_line',
    kind: 'edit',
    description: `Inserts new_str as a line after line insert_line of a message (0 = before the first line).${EDIT_NOTE}`,
    parameters: obj({ id: EDIT_ID, insert_line: int('The line to insert after (0 = at the top)'), new_str: str('The text to insert'), out: EDIT_OUT }, ['id', 'insert_line', 'new_str']),
  },
  {
    name: 'msg_replace_lines',
    kind: 'edit',
    description: `Replaces lines start_line to end_line (inclusive) of a message by new_content.${EDIT_NOTE}`,
    parameters: obj(
      { id: EDIT_ID, start_line: int('First line to replace (default the first)'), end_line: int('Last line to replace (default the last; negative counts from the end)'), new_content: str('The lines to put instead', ''), out: EDIT_OUT },
      ['id'],
    ),
  },
  {
    name: 'msg_del_lines',
    kind: 'edit',
    description: `Deletes lines start_line to end_line (inclusive; 1, -1 = all) of a message.${EDIT_NOTE}`,
    parameters: obj({ id: EDIT_ID, start_line: int('First line to delete'), end_line: int('Last line to delete (negative counts from the end)'), ...LINE_FILTER, out: EDIT_OUT }, ['id', 'start_line', 'end_line']),
  },
  {
    name: 'python',
    kind: 'destructive',
    description:
      "Runs Python code in the dialog's kernel (its variables and imports are there) and returns what it printed and the value of its last expression, or the error. The user is asked first.",
    parameters: obj({ code: str('The Python code to run') }, ['code']),
  },
  {
    name: 'search_dialogs',
    kind: 'read',
    description:
      "Searches every dialog of the user's workspace (full text, ranked), not only this one: what they asked, the AI's replies, code, outputs and notes. Use it for \"how did I solve this before?\". Returns hits with the dialog's dname, the message id, its kind and a snippet (matches in **bold**); read one whole with read_msg or view_msg and that dname. The query takes words, \"a phrase\", -word to exclude, kind:reply and in:folder/.",
    parameters: obj(
      {
        query: str('Words to find (all of them), "a phrase", -word; also kind:… and in:folder/ filters, or /regex/ for an exact pattern (slower)'),
        kind: { type: 'string', enum: ['prompt', 'reply', 'code', 'output', 'note', 'raw'], description: 'Only parts of this kind' },
        folder: str('Only dialogs under this workspace folder'),
        limit: int('Return at most this many hits', 20),
      },
      ['query'],
    ),
  },
];

/** Tools that search the workspace rather than act on one dialog: the host runs them, no dialog needed. */
export const WORKSPACE_TOOLS: readonly string[] = ['search_dialogs'];

const BY_NAME = new Map(DIALOG_TOOLS.map((t) => [t.name, t]));

export function dialogTool(name: string): DialogToolDef | undefined {
  return BY_NAME.get(name);
}

export function isDialogTool(name: string): boolean {
  return BY_NAME.has(name);
}

/** VS Code's agents get each tool as the Language Model Tool `dialog_<name>`. */
export const AGENT_TOOL_PREFIX = 'dialog_';

/** The schema an agent's tool takes: the tool's own parameters and `dialog`, the dialog to act on. */
export function agentToolSchema(def: DialogToolDef): JsonObject {
  const dialog = { type: 'string', description: 'The dialog to act on: its path (workspace-relative, with or without .ipynb). Default: the active dialog.' };
  return { ...def.parameters, properties: { ...(def.parameters.properties as JsonObject), dialog } };
}
