// The AI's dialog tools as pure operations: dialoghelper's names, placement rules, relative reads,
// result strings, and failures that change nothing.

import assert from 'node:assert/strict';
import { Dialog, Message, promptOutput } from '../../src/core/model';
import { applyEdit } from '../../src/core/surgery';
import { DIALOG_TOOLS, ToolContext, dialogTool, planDialogTool } from '../../src/core/tools';
import { JsonObject } from '../../src/core/base';

function dialog(): Dialog {
  const d = new Dialog(
    [
      new Message({ id: 'aaaa0001', msgType: 'note', content: '# Intro\nSome text' }),
      new Message({ id: 'bbbb0002', msgType: 'code', content: 'x = 21\nprint(x*2)', output: [{ output_type: 'stream', name: 'stdout', text: '42\n' }] }),
      new Message({ id: 'cccc0003', msgType: 'prompt', content: 'What is x?', output: promptOutput('It is 21.') }),
      new Message({ id: 'dddd0004', msgType: 'note', content: 'hidden note', skipped: true }),
      new Message({ id: 'eeee0005', msgType: 'prompt', content: 'Add a note' }),
    ],
    'folder/my dialog',
  );
  return d;
}

const ctx = (over: Partial<ToolContext> = {}): ToolContext => ({ name: 'folder/my dialog', mode: 'learning', current: 'eeee0005', answering: 'eeee0005', ...over });

/** Plans and applies a call, as a host does; returns the outcome. */
function call(d: Dialog, name: string, args: JsonObject, c: ToolContext = ctx()) {
  const r = planDialogTool(d, name, args, c);
  if (r.edit) applyEdit(d, r.edit);
  return r;
}

const ids = (d: Dialog) => d.messages.map((m) => m.id);

describe('dialog tools: definitions', () => {
  it('offers dialoghelper’s tools with their parameter names', () => {
    const names = DIALOG_TOOLS.map((t) => t.name);
    for (const n of ['curr_dialog', 'view_dlg', 'find_msgs', 'read_msg', 'view_msg', 'add_msg', 'update_msg', 'del_msgs', 'msg_str_replace', 'msg_strs_replace', 'msg_insert_line', 'msg_replace_lines', 'msg_del_lines', 'python']) assert.ok(names.includes(n), n);
    const props = (n: string) => Object.keys((dialogTool(n)!.parameters.properties as JsonObject) ?? {});
    assert.deepEqual(props('add_msg').slice(0, 4), ['content', 'placement', 'id', 'msg_type']);
    assert.deepEqual(props('msg_str_replace').slice(0, 3), ['id', 'old_str', 'new_str']);
    assert.deepEqual(props('msg_insert_line'), ['id', 'insert_line', 'new_str', 'out']);
    assert.ok(props('find_msgs').includes('re_pattern') && props('find_msgs').includes('include_skipped'));
    assert.equal(dialogTool('del_msgs')!.kind, 'destructive');
    assert.equal(dialogTool('python')!.kind, 'destructive');
    assert.equal(dialogTool('view_dlg')!.kind, 'read');
    assert.equal(dialogTool('add_msg')!.kind, 'edit');
  });
});

describe('dialog tools: reading', () => {
  it('curr_dialog gives the name and mode as a Python dict', () => {
    assert.equal(call(dialog(), 'curr_dialog', {}).text, "{'name': 'folder/my dialog', 'mode': 'learning'}");
  });

  it('view_dlg lists the messages with ids, skipped ones only when asked, and filters by type', () => {
    const d = dialog();
    const all = call(d, 'view_dlg', {}).text;
    assert.ok(all.startsWith('<dialog name="folder/my dialog">'));
    assert.match(all, /<markdown id="aaaa0001"># Intro\nSome text<\/markdown>/);
    assert.match(all, /<prompt id="cccc0003">What is x\?<out>It is 21\.<\/out><\/prompt>/);
    assert.doesNotMatch(all, /dddd0004/);
    assert.doesNotMatch(all, /42/);
    assert.match(call(d, 'view_dlg', { include_skipped: true }).text, /dddd0004/);
    const code = call(d, 'view_dlg', { msg_type: 'code', include_output: true, nums: true }).text;
    assert.equal(code, '<dialog name="folder/my dialog"><code id="bbbb0002">     1 │ x = 21\n     2 │ print(x*2)<out>42\n</out></code></dialog>');
  });

  it('find_msgs finds by regex with context rows, as a list of dicts', () => {
    const d = dialog();
    const r = call(d, 'find_msgs', { re_pattern: 'print\\(', context: 0 });
    assert.equal(r.text, "[{'id': 'bbbb0002', 'msg_type': 'code', 'content': 'x = 21\\nprint(x*2)', 'output': '42\\n'}]");
    const around = call(d, 'find_msgs', { re_pattern: 'PRINT' }).text;
    assert.match(around, /'id': 'aaaa0001'.*'id': 'bbbb0002'.*'id': 'cccc0003'/s);
    assert.equal(call(d, 'find_msgs', { re_pattern: 'hidden' }).text, '[]');
    assert.match(call(d, 'find_msgs', { re_pattern: 'hidden', include_skipped: true, context: 0 }).text, /'skipped': True/);
    assert.match(call(d, 'find_msgs', { re_pattern: 'x', msg_type: 'prompt', context: 0, as_xml: true }).text, /^<dialog name="folder\/my dialog"><prompt id="cccc0003">/);
    assert.equal(call(d, 'find_msgs', { headers_only: true, include_output: false }).text, "[{'id': 'aaaa0001', 'msg_type': 'note', 'content': '# Intro'}]");
  });

  it('read_msg reads relative to the current message, absolutely, or relative to an id', () => {
    const d = dialog();
    assert.match(call(d, 'read_msg', {}).text, /^\{'id': 'dddd0004'/);
    assert.match(call(d, 'read_msg', { n: -2 }).text, /^\{'id': 'cccc0003', 'msg_type': 'prompt', 'content': 'What is x\?', 'output': 'It is 21\.'/);
    assert.equal(call(d, 'read_msg', { n: 1 }).text, "{'msg': None}");
    assert.match(call(d, 'read_msg', { n: 0, relative: false }).text, /^\{'id': 'aaaa0001'/);
    assert.match(call(d, 'read_msg', { n: -1, relative: false }).text, /^\{'id': 'eeee0005'/);
    assert.match(call(d, 'read_msg', { n: 0, id: 'bbbb0002', nums: true }).text, /'content': ' {5}1 │ x = 21\\n {5}2 │ print\(x\*2\)'/);
    assert.match(call(d, 'read_msg', { n: 0, id: 'bbbb0002', start_line: 2 }).text, /'content': 'print\(x\*2\)'/);
    assert.equal(call(d, 'read_msg', { n: 0, id: 'nope' }).text, "{'msg': None}");
    const bad = call(d, 'read_msg', { id: 'bbbb0002', relative: false });
    assert.equal(bad.ok, false);
    assert.match(bad.text, /relative=False/);
  });

  it('view_msg gives numbered lines, a range, the output on request', () => {
    const d = dialog();
    assert.equal(call(d, 'view_msg', { id: 'bbbb0002' }).text, '     1 │ x = 21\n     2 │ print(x*2)');
    assert.equal(call(d, 'view_msg', { id: 'bbbb0002', start_line: 2 }).text, '     2 │ print(x*2)');
    assert.equal(call(d, 'view_msg', { id: 'bbbb0002', nums: false, incl_out: true }).text, 'x = 21\nprint(x*2)\n<out>\n42\n\n</out>');
    assert.match(call(d, 'view_msg', { id: 'bbbb0002', lnhashs: true }).text, /^1\|[0-9a-f]{4}\|x = 21\n2\|/);
    const r = call(d, 'view_msg', { id: 'zzzz9999' });
    assert.equal(r.ok, false);
    assert.equal(r.text, "Error: no message id: 'zzzz9999'");
  });
});

describe('dialog tools: editing', () => {
  it('add_msg places after the current message and chains: successive adds come in order', () => {
    const d = dialog();
    const c = ctx();
    const a = call(d, 'add_msg', { content: 'first' }, c);
    assert.match(a.text, /^[0-9a-f]{8}$/);
    assert.equal(a.current, a.text);
    c.current = a.current!;
    const b = call(d, 'add_msg', { content: 'second' }, c);
    assert.deepEqual(ids(d).slice(-3), ['eeee0005', a.text, b.text]);
    assert.equal(d.msg(a.text).msgType, 'note');
  });

  it('add_msg: add_before, at_start, at_end, relative to an id, code type and flags', () => {
    const d = dialog();
    const s = call(d, 'add_msg', { content: 'top', placement: 'at_start' }).text;
    const e = call(d, 'add_msg', { content: 'end', placement: 'at_end', msg_type: 'code' }).text;
    const b = call(d, 'add_msg', { content: 'before b', placement: 'add_before', id: 'bbbb0002', pinned: true, o_collapsed: true }).text;
    assert.equal(ids(d)[0], s);
    assert.equal(ids(d)[ids(d).length - 1], e);
    assert.equal(ids(d)[ids(d).indexOf('bbbb0002') - 1], b);
    assert.equal(d.msg(e).msgType, 'code');
    assert.equal(d.msg(b).pinned, true);
    assert.equal(d.msg(b).meta.collapsed, true);
    assert.equal(d.msg(b).meta.skipped, undefined);
  });

  it('add_msg with an unknown id or a bad placement or type changes nothing', () => {
    const d = dialog();
    const bad: JsonObject[] = [{ content: 'x', id: 'nope' }, { content: 'x', placement: 'sideways' }, { content: 'x', msg_type: 'poem' }, { placement: 'at_end' }];
    for (const args of bad) {
      const r = call(d, 'add_msg', args);
      assert.equal(r.ok, false, JSON.stringify(args));
      assert.match(r.text, /^Error: /);
      assert.equal(r.edit, undefined);
    }
    assert.equal(d.messages.length, 5);
  });

  it('update_msg changes only the given fields and makes the message current', () => {
    const d = dialog();
    const r = call(d, 'update_msg', { id: 'aaaa0001', content: '# Intro\nNew text', skipped: true });
    assert.equal(r.text, 'aaaa0001');
    assert.equal(r.current, 'aaaa0001');
    assert.equal(d.msg('aaaa0001').content, '# Intro\nNew text');
    assert.equal(d.msg('aaaa0001').skipped, true);
    assert.equal(d.msg('aaaa0001').msgType, 'note');
    const none = planDialogTool(d, 'update_msg', { id: 'aaaa0001', content: '# Intro\nNew text' }, ctx());
    assert.equal(none.edit, undefined);
    assert.equal(call(d, 'update_msg', { id: 'nope', content: 'x' }).ok, false);
  });

  it('the prompt being answered cannot be changed or deleted', () => {
    const d = dialog();
    for (const [name, args] of [
      ['update_msg', { id: 'eeee0005', content: 'x' }],
      ['del_msgs', { ids: 'aaaa0001, eeee0005' }],
      ['msg_str_replace', { id: 'eeee0005', old_str: 'Add', new_str: 'Write' }],
    ] as const) {
      const r = call(d, name, args as JsonObject);
      assert.equal(r.ok, false, name);
      assert.match(r.text, /prompt being answered/);
    }
    assert.equal(d.messages.length, 5);
    assert.equal(d.msg('eeee0005').content, 'Add a note');
  });

  it('del_msgs deletes the ids given (a collapsed heading with its section) and returns them', () => {
    const d = dialog();
    d.msg('aaaa0001').meta.heading_collapsed = true;
    // The section holds the answering prompt here: refused.
    assert.equal(planDialogTool(d, 'del_msgs', { ids: 'aaaa0001' }, ctx()).ok, false);
    const section = planDialogTool(d, 'del_msgs', { ids: 'aaaa0001' }, ctx({ answering: null }));
    assert.deepEqual(section.deletes!.map((m) => m.id), ids(d));
    delete d.msg('aaaa0001').meta.heading_collapsed;
    const r = call(d, 'del_msgs', { ids: 'bbbb0002,dddd0004' });
    assert.equal(r.text, "['bbbb0002', 'dddd0004']");
    assert.deepEqual(ids(d), ['aaaa0001', 'cccc0003', 'eeee0005']);
    const bad = call(d, 'del_msgs', { ids: 'aaaa0001,nope' });
    assert.equal(bad.ok, false);
    assert.deepEqual(ids(d), ['aaaa0001', 'cccc0003', 'eeee0005']);
  });

  it('msg_str_replace returns the diff and edits; a miss is an error that changes nothing', () => {
    const d = dialog();
    const r = call(d, 'msg_str_replace', { id: 'bbbb0002', old_str: '21', new_str: '6' });
    assert.equal(r.text, '@@ -1,2 +1,2 @@\n-x = 21\n+x = 6\n print(x*2)');
    assert.equal(d.msg('bbbb0002').content, 'x = 6\nprint(x*2)');
    const miss = call(d, 'msg_str_replace', { id: 'bbbb0002', old_str: 'zzz', new_str: 'y' });
    assert.equal(miss.ok, false);
    assert.match(miss.text, /^error: Failed to find 'zzz'/);
    assert.equal(miss.edit, undefined);
  });

  it('msg_strs_replace, msg_insert_line, msg_replace_lines, msg_del_lines follow their line rules', () => {
    const d = dialog();
    call(d, 'msg_strs_replace', { id: 'bbbb0002', old_strs: ['x = 21', 'x*2'], new_strs: ['y = 1', 'y'] });
    assert.equal(d.msg('bbbb0002').content, 'y = 1\nprint(y)');
    call(d, 'msg_insert_line', { id: 'bbbb0002', insert_line: 0, new_str: 'import os' });
    assert.equal(d.msg('bbbb0002').content, 'import os\ny = 1\nprint(y)');
    call(d, 'msg_replace_lines', { id: 'bbbb0002', start_line: 2, end_line: 2, new_content: 'y = 2' });
    assert.equal(d.msg('bbbb0002').content, 'import os\ny = 2\nprint(y)');
    call(d, 'msg_del_lines', { id: 'bbbb0002', start_line: 1, end_line: 1 });
    assert.equal(d.msg('bbbb0002').content, 'y = 2\nprint(y)');
    const out = call(d, 'msg_insert_line', { id: 'bbbb0002', insert_line: 9, new_str: 'z' });
    assert.equal(out.ok, false);
    assert.equal(out.text, 'error: Invalid line 9. Valid range: 0-2');
    const range = call(d, 'msg_del_lines', { id: 'bbbb0002', start_line: 3, end_line: 4 });
    assert.equal(range.text, 'error: Invalid start line 3. Valid range: 1-2');
    assert.equal(d.msg('bbbb0002').content, 'y = 2\nprint(y)');
    const mism = call(d, 'msg_strs_replace', { id: 'bbbb0002', old_strs: ['a'], new_strs: [] });
    assert.match(mism.text, /Length mismatch/);
  });

  it('text edits on a list of ids or all give (id, result) pairs and leave out the answering prompt', () => {
    const d = dialog();
    const r = call(d, 'msg_str_replace', { id: 'all', old_str: 'x', new_str: 'X' });
    assert.match(r.text, /^\[\('aaaa0001', '@@.*\('bbbb0002', '@@/);
    assert.match(r.text, /\('dddd0004', "error: Failed to find 'x' in: 'hidden note'"\)\]$/);
    assert.equal(d.msg('bbbb0002').content, 'X = 21\nprint(X*2)');
    assert.equal(d.msg('cccc0003').content, 'What is X?');
    assert.equal(d.msg('eeee0005').content, 'Add a note');
    assert.equal(call(d, 'msg_str_replace', { id: ['aaaa0001', 'nope'], old_str: 'a', new_str: 'b' }).ok, false);
  });

  it('a prompt reply is edited with out=true', () => {
    const d = dialog();
    call(d, 'msg_str_replace', { id: 'cccc0003', old_str: '21', new_str: 'twenty-one', out: true });
    assert.equal(call(d, 'view_msg', { id: 'cccc0003', incl_out: true, nums: false }).text, 'What is x?\n<out>\nIt is twenty-one.\n</out>');
  });

  it('wrong argument types are clear errors', () => {
    const d = dialog();
    assert.equal(call(d, 'msg_insert_line', { id: 'bbbb0002', insert_line: 'two', new_str: 'x' }).text, 'Error: insert_line must be an integer, not "two"');
    assert.equal(call(d, 'nope', {}).ok, false);
    assert.equal(call(d, 'python', { code: '1' }).ok, false);
  });
});
