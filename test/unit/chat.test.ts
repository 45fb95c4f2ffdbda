import { strict as assert } from 'node:assert';
import { ENV, PENDING, v134 } from './fixtures';
import { Dialog, DialogError, Message, promptOutput } from '../../src/core/model';
import { chat2dlg, dlg2chat, reply2chat } from '../../src/core/hist';
import { Msg, textPart } from '../../src/core/hist';
import { aiRes } from '../../src/core/model';
import { b64decode } from '../../src/core/base';

const tool = (id: string, code: string, result: string) =>
  '```json {.tool}\n' + JSON.stringify({ id, name: 'python', args: { code }, result }, null, 2) + '\n```';
const brief = (msgs: Msg[]) => msgs.map((m) => [m.role, m.content.map((p) => ('text' in p ? p.text : p.type))]);

describe('chat: dlg2chat', () => {
  it('V136 roles and text parts (envelope option; bare is the default, DECISIONS)', () => {
    assert.deepEqual(brief(dlg2chat(v134(), null, { envelope: true })), [
      ['user', ['<markdown id="n0">intro</markdown>', `${ENV}<prompt sid="p1">q1</prompt>`]], ['assistant', ['a1']],
      ['user', ['<code id="c1">x=1<out>s</out></code>', `${ENV}<prompt sid="p2">q2</prompt>`]], ['assistant', [PENDING]],
    ]);
    assert.deepEqual(brief(dlg2chat(v134()))[0], ['user', ['<markdown id="n0">intro</markdown>', 'q1']]);
  });
  it('V137 strict call/result alternation', () => {
    const d = new Dialog([new Message({ msgType: 'prompt', content: 'Two steps.', output: promptOutput(`${tool('x1', '1+1', '2')}\n\n${tool('x2', '2+2', '4')}\n\nDone.`) })]);
    const c = dlg2chat(d);
    assert.deepEqual(c.map((m) => [m.role, m.content.map((p) => p.type)]), [
      ['user', ['text']], ['assistant', ['tool_use']], ['tool', ['tool_result']], ['assistant', ['tool_use']], ['tool', ['tool_result']], ['assistant', ['text']],
    ]);
    assert.equal((c[2].content[0] as { id: string }).id, (c[1].content[0] as { id: string }).id);
    assert.equal((c[4].content[0] as { id: string }).id, 'x2');
  });
  it('seed: the assistant prose goes with the first call', () => {
    const c = reply2chat(`Check:\n\n${tool('x1', '1+1', '2')}\n\n${tool('x2', '2+2', '4')}\n\nIt is 2.`);
    assert.deepEqual(c.map((m) => [m.role, m.content.map((p) => p.type)]), [
      ['assistant', ['text', 'tool_use']], ['tool', ['tool_result']], ['assistant', ['tool_use']], ['tool', ['tool_result']], ['assistant', ['text']],
    ]);
  });
  it('V138 duplicate tool call ids', () => {
    const d = new Dialog([
      new Message({ msgType: 'prompt', content: 'a', output: promptOutput(tool('x1', '1', '1')) }),
      new Message({ msgType: 'prompt', content: 'b', output: promptOutput(tool('x1', '1', '1')) }),
    ]);
    assert.throws(() => dlg2chat(d), (e: Error) => e instanceof DialogError && e.message === 'duplicate tool call id(s): x1');
  });
  it('media bytes become data-URL parts; undetectable bytes use the declared mime instead of crashing (DECISIONS)', () => {
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGP4DwABAQEAsTj2FAAAAABJRU5ErkJggg==';
    const m = new Message({ id: 'c', msgType: 'code', content: 'c', output: [
      { output_type: 'display_data', metadata: {}, data: { 'image/png': png } },
      { output_type: 'display_data', metadata: {}, data: { 'image/png': 'AAAA' } },
    ] });
    const c = dlg2chat([m, new Message({ id: 'p', msgType: 'prompt', content: 'q' })]);
    assert.deepEqual(c[0].content[1], { type: 'input_image', text: `data:image/png;base64,${png}`, mime: 'image/png' });
    assert.deepEqual(c[0].content[3], { type: 'input_image', text: 'data:image/png;base64,AAAA', mime: 'image/png' });
  });
});

describe('chat: chat2dlg', () => {
  it('V140 id = md5(name U+001F index)[:8]', () => {
    const d = chat2dlg([{ role: 'user', content: [textPart('When?')] }, { role: 'assistant', content: [textPart('Now.')] }], 'same');
    assert.deepEqual(d.messages.map((m) => [m.id, m.msgType, m.content, aiRes(m)]), [['3c462ab5', 'prompt', 'When?', 'Now.']]);
  });
  it('V141 the envelope is unwrapped and its sid becomes the id', () => {
    const d = chat2dlg([{ role: 'user', content: [textPart(`${ENV}<prompt sid="abc123">Do it.</prompt>`)] }], 'x');
    assert.deepEqual(d.messages.map((m) => [m.id, m.content]), [['abc123', 'Do it.']]);
  });
  it('images become attachments, a uid in meta gives the id, leading non-user messages a stub turn', () => {
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGP4DwABAQEAsTj2FAAAAABJRU5ErkJggg==';
    const user = { role: 'user', content: [textPart('Look'), { type: 'input_image', text: `data:image/png;base64,${png}`, mime: 'image/png' }], meta: { uid: 'u1' } } as Msg;
    const d = chat2dlg([{ role: 'assistant', content: [textPart('earlier')] }, user], 'n');
    assert.equal(d.messages.length, 2);
    assert.equal(d.messages[0].content, '');
    assert.equal(aiRes(d.messages[0]), 'earlier');
    const m = d.messages[1];
    assert.equal(m.content, `Look\n\n![](attachment:${m.attachments[0].id})`);
    assert.deepEqual(m.attachments[0].data, b64decode(png));
    assert.deepEqual(m.meta, { uid: 'u1' });
    assert.equal(chat2dlg([user], 'other').messages[0].id, m.id); // the uid, not the name, decides
    assert.throws(() => chat2dlg([{ role: 'user', content: [{ type: 'input_audio', text: 'x' }] }], 'n'), /unsupported user part: input_audio/);
  });
  it('round trip: chat2dlg(dlg2chat(d)) keeps the replies canonically', () => {
    const d = new Dialog([new Message({ id: 'p1', msgType: 'prompt', content: 'Two steps.', output: promptOutput(`${tool('x1', '1+1', '2')}\n\nDone.`) })]);
    const back = chat2dlg(dlg2chat(d, null, { envelope: true }), 'rt');
    assert.equal(back.messages[0].id, 'p1');
    assert.equal(back.messages[0].content, 'Two steps.');
    assert.deepEqual(dlg2chat(back), dlg2chat(d));
  });
});
