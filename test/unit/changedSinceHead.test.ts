// find_msgs(only_chg=True): the messages of the open dialog that are new or differ from the file's version
// at git HEAD, matched as the merge matches them (by id; id-less cells by content, then position).

import assert from 'node:assert/strict';
import { readIpynb, writeIpynb } from '../../src/core/ipynb';
import { Dialog, Message } from '../../src/core/model';
import { changedMessages } from '../../src/core/threeway';
import { ToolContext, planDialogTool } from '../../src/core/tools';

const note = (id: string, content: string) => new Message({ id, msgType: 'note', content });
const HEAD = writeIpynb(new Dialog([note('aaaa0001', '# Top'), note('bbbb0002', 'Two'), new Message({ id: 'cccc0003', msgType: 'code', content: 'x = 1' }), note('dddd0004', 'Four')]));

/** A file whose cells have no ids (nbformat 4.4): each read makes ids up. */
const IDLESS = JSON.stringify({
  cells: ['One', 'Two', 'Three', 'Two'].map((t) => ({ cell_type: 'markdown', metadata: {}, source: [t] })),
  metadata: {},
  nbformat: 4,
  nbformat_minor: 4,
});

const ids = (s: Set<Message>) => [...s].map((m) => m.id);

describe('changed since git HEAD (only_chg)', () => {
  it('an unchanged dialog has no changed message', () => {
    assert.deepEqual(ids(changedMessages(readIpynb(HEAD), readIpynb(HEAD))), []);
  });

  it('edited and added messages count; moved, deleted and untouched ones do not', () => {
    const now = readIpynb(HEAD);
    now.messages[1].content = 'Two, edited';
    now.messages[2].meta.bookmark = 3;
    const moved = now.messages.splice(3, 1)[0];
    now.messages.unshift(moved);
    now.messages.splice(2, 0, note('eeee0005', 'New'));
    now.messages.pop();
    assert.deepEqual(ids(changedMessages(readIpynb(HEAD), now)).sort(), ['bbbb0002', 'eeee0005']);
  });

  it('a changed code output counts (it is in the file)', () => {
    const now = readIpynb(HEAD);
    now.messages[2].output = [{ output_type: 'stream', name: 'stdout', text: '1\n' }];
    assert.deepEqual(ids(changedMessages(readIpynb(HEAD), now)), ['cccc0003']);
  });

  it('id-less cells: by content, then by position between matched neighbours', () => {
    const now = readIpynb(IDLESS);
    now.messages[2].content = 'Three, edited';
    const got = changedMessages(readIpynb(IDLESS), now);
    assert.deepEqual([...got].map((m) => m.content), ['Three, edited']);
  });

  it('no version at HEAD (untracked, no commit yet): every message', () => {
    assert.equal(changedMessages(null, readIpynb(HEAD)).size, 4);
  });

  it('find_msgs with only_chg filters as only_err does; without a HEAD version it says why', () => {
    const ctx = (head: ToolContext['head']): ToolContext => ({ name: 'd', mode: 'learning', current: null, head });
    const now = readIpynb(HEAD);
    now.messages[3].content = 'Four, edited';
    const found = (head: ToolContext['head'], extra = {}) => {
      const r = planDialogTool(now, 'find_msgs', { only_chg: true, context: 0, ...extra }, ctx(head));
      assert.ok(r.ok, r.text);
      return (r.value as { id: string }[]).map((m) => m.id);
    };
    assert.deepEqual(found(readIpynb(HEAD)), ['dddd0004']);
    assert.deepEqual(found(readIpynb(HEAD), { re_pattern: 'Top' }), []);
    assert.deepEqual(found(null), ['aaaa0001', 'bbbb0002', 'cccc0003', 'dddd0004']);
    const no = planDialogTool(now, 'find_msgs', { only_chg: true }, ctx('x.ipynb is not in a git repository'));
    assert.deepEqual([no.ok, no.text.includes('x.ipynb is not in a git repository')], [false, true]);
    assert.equal(planDialogTool(now, 'find_msgs', { only_chg: true }, ctx(undefined)).ok, false);
    // Without only_chg, no HEAD is needed.
    assert.ok(planDialogTool(now, 'find_msgs', {}, ctx(undefined)).ok);
  });
});
