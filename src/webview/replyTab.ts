// The Reply tab: the selected prompt's reply exploded into notes and tool calls (name, arguments,
// result). Edits stay in a local draft until Apply sends them; the host writes the reply back with
// `dlg2reply` as one undoable edit.

import { StateMessage } from '../shared/panelProtocol';
import { ReplyPart } from '../core/reply';
import { button, h, icon, input, textarea } from './dom';

export interface Draft {
  promptId: string;
  parts: ReplyPart[];
  dirty: boolean;
}

export function replyTab(s: StateMessage, draft: Draft | null, status: string, onChange: () => void, apply: () => void, revert: () => void): HTMLElement {
  const wrap = h('div', { class: 'reply' });
  if (!draft) {
    wrap.append(h('p', { class: 'empty' }, s.replyError ?? 'Select a prompt to edit its reply.'));
    return wrap;
  }
  const touch = () => {
    draft.dirty = true;
    onChange();
  };
  const other = s.reply?.promptId !== draft.promptId;
  wrap.append(h('div', { class: 'meta' }, `Reply of prompt ${draft.promptId}${other ? ' (edited; not the prompt under the cursor)' : ''}`));
  const rerender = () => {
    touch();
    wrap.replaceWith(replyTab(s, draft, status, onChange, apply, revert));
  };
  draft.parts.forEach((p, k) => {
    const del = button('Delete', () => {
      draft.parts.splice(k, 1);
      rerender();
    }, 'small', 'Delete this part', 'trash');
    if (p.kind === 'note') {
      wrap.append(h('div', { class: 'card note' }, h('div', { class: 'card-head' }, h('span', { class: 'tag' }, icon('note'), 'note'), del), textarea(p.text, (v) => ((p.text = v), touch()))));
    } else {
      wrap.append(
        h(
          'div',
          { class: 'card call' },
          h('div', { class: 'card-head' }, h('span', { class: 'tag' }, icon('tools'), 'tool call'), h('span', { class: 'meta' }, p.toolId || 'new id on apply'), del),
          h('label', {}, 'name', input(p.name, (v) => ((p.name = v), touch()), 'name')),
          h('label', {}, 'arguments (keyword=Python literal)', textarea(p.args, (v) => ((p.args = v), touch()), 'code')),
          h('label', {}, 'result', textarea(p.result, (v) => ((p.result = v), touch()), 'code')),
        ),
      );
    }
  });
  if (!draft.parts.length) wrap.append(h('p', { class: 'empty' }, 'This prompt has no reply yet: add a note or a call.'));
  wrap.append(
    h(
      'div',
      { class: 'toolbar' },
      button('Note', () => {
        draft.parts.push({ kind: 'note', text: '' });
        rerender();
      }, '', 'Add a note', 'add'),
      button('Tool call', () => {
        draft.parts.push({ kind: 'call', name: '', args: '', result: '', toolId: '' });
        rerender();
      }, '', 'Add a tool call', 'add'),
      h('span', { class: 'spacer' }),
      button('Revert', revert, '', 'Drop the edits', 'discard'),
      button('Apply', apply, 'primary', 'Write the reply back into the prompt (one undo step)', 'check'),
    ),
    h('div', { class: 'status' }, status),
  );
  return wrap;
}
