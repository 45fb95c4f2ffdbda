import { strict as assert } from 'node:assert';
import { Dialog, Message, codeOutput, promptOutput } from '../../src/core/model';
import { histXml, promptTxt, toLocalTime, toParts, toXml, warningTag } from '../../src/core/hist';

const PNG_B64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGP4DwABAQEAsTj2FAAAAABJRU5ErkJggg==';
const ENV = '<instructions>Respond to the request in the `prompt` below.</instructions>\n';

describe('xml: msg2xml / to_xml', () => {
  it('V065 content and out are not escaped', () => {
    const m = new Message({ id: 'c1', msgType: 'code', content: 'a < b & "c"', output: codeOutput('x<y') });
    assert.equal(toXml(m, { inclOut: true }), '<code id="c1">a < b & "c"<out>x<y</out></code>');
    assert.equal(toXml(m), '<code id="c1">a < b & "c"</code>');
  });
  it('V066 kind from meta.rec_kind', () => {
    assert.equal(toXml(new Message({ id: 'r1', msgType: 'raw', content: '', meta: { rec_kind: 'system:compact' } })), '<raw id="r1" kind="system:compact"></raw>');
  });
  it('V067 nbdev attributes: bare for "true", escaped and quoted values', () => {
    const m = new Message({ id: 'n1', msgType: 'note', content: '# T', meta: { nbdev: { export: 'true', hide: 'it\'s "q"', x: 'a<b' } } });
    assert.equal(toXml(m), `<markdown id="n1" export hide='it&#39;s "q"' x="a&lt;b"># T</markdown>`);
  });
  it('a prompt always shows its reply (ai_res, untrimmed); code output is cut to 512 code points', () => {
    assert.equal(toXml(new Message({ id: 'p', msgType: 'prompt', content: 'q', output: promptOutput('r\n') })), '<prompt id="p">q<out>r\n</out></prompt>');
    const long = '🤖'.repeat(600);
    const x = toXml(new Message({ id: 'c', msgType: 'code', content: '', output: codeOutput(`'${long}'`) }), { inclOut: true });
    assert.equal(x, `<code id="c"><out>'${'🤖'.repeat(510)}…</out></code>`);
    assert.equal(toXml(new Message({ id: 'e', msgType: 'note' }), { ids: false }), '<markdown></markdown>');
  });
  it('a non-string nbdev value is the directive error', () => {
    assert.throws(() => toXml(new Message({ msgType: 'code', meta: { nbdev: { export: true } } })), /`nbdev` metadata directive values must be str/);
  });
});

describe('xml: history rendering', () => {
  it('V130 prompt envelope (option; DECISIONS "prompt text in history": bare by default)', () => {
    const m = new Message({ id: '_t1', msgType: 'prompt', content: 'question' });
    assert.equal(promptTxt(m, { envelope: true }), `${ENV}<prompt sid="_t1">question</prompt>`);
    assert.equal(promptTxt(m), 'question');
    assert.equal(promptTxt(m, { last: true }), 'question');
  });
  it('V131 envelope time in the dialog timezone', () => {
    const m = new Message({ id: '_t1', msgType: 'prompt', content: 'question', extra: { time_run: '2026-01-27T12:00:00+00:00' } });
    assert.equal(promptTxt(m, { envelope: true }), `${ENV}<prompt sid="_t1" time="2026-01-27T12:00:00+00:00">question</prompt>`);
    const d = new Dialog([m], 'd') as Dialog & { timezone?: string };
    d.timezone = 'Europe/Paris';
    assert.match(promptTxt(m, { envelope: true }), /time="2026-01-27T13:00:00\+01:00"/);
    m.extra.time_run = 'garbage';
    assert.match(promptTxt(m, { envelope: true }), /<prompt sid="_t1" time="">/);
  });
  it('V132 code with directives and output', () => {
    const m = new Message({ id: 'm1', msgType: 'code', content: 'print("hi")', meta: { nbdev: { export: 'true', default_exp: 'core' } },
      output: [{ output_type: 'stream', name: 'stdout', text: 'hi\n' }] });
    assert.equal(histXml(m), '<code id="m1" export default_exp="core">print("hi")<out>hi\n</out></code>');
  });
  it('V133 note', () => assert.equal(histXml(new Message({ id: 'n1', msgType: 'note', content: '# hey' })), '<markdown id="n1"># hey</markdown>'));
  it('non-prompts get time only when stamped, and omit an unparseable one', () => {
    const m = new Message({ id: 'n', msgType: 'note', content: 'x', extra: { time_run: '2026-01-27T12:00:00.5Z' } });
    assert.equal(histXml(m, { timezone: 'America/New_York' }), '<markdown id="n" time="2026-01-27T07:00:00.500000-05:00">x</markdown>');
    m.extra.time_run = 'nope';
    assert.equal(histXml(m), '<markdown id="n">x</markdown>');
  });
  it('to_local_time', () => {
    assert.equal(toLocalTime(''), '');
    assert.equal(toLocalTime(null), '');
    assert.equal(toLocalTime('2026-07-01T12:00:00+02:00', 'Europe/Paris'), '2026-07-01T12:00:00+02:00');
    assert.equal(toLocalTime('2026-01-27T12:00:00Z', 'Not/AZone'), '');
  });
  it('V129 to_parts: media then the item', () => {
    const m = new Message({ id: 'cc', msgType: 'code', content: 'c', output: [{ output_type: 'display_data', metadata: {}, data: { 'image/png': PNG_B64, 'text/plain': '<Fig>' } }] });
    const r = toParts(m, { supports_vision: true });
    assert.equal(r.length, 3);
    assert.equal(r[0], '<media id="4P52II3F" type="output" mime="image/png"></media>');
    assert.ok(r[1] instanceof Uint8Array);
    assert.equal(r[2], '<code id="cc">c<out><Fig></out></code>');
  });
  it('warning_tag', () => {
    assert.equal(warningTag('careful'), '<system-reminder>**NB**: careful</system-reminder>');
    assert.equal(warningTag(''), '');
  });
});
