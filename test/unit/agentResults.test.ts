// What an agent outside VS Code gets (issue 44), as pure parts: a result cut to the limit saying how to
// read the rest, the images of a message read, and the set-up lines of the connect command.

import assert from 'node:assert/strict';
import { Attachment, Dialog, Message } from '../../src/core/model';
import { limitResult, planDialogTool } from '../../src/core/tools';
import { TOKEN_MASK, setupLines } from '../../src/extension/mcp/setup';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const ctx = { name: 'd', mode: 'standard', current: null };

describe('agents: results that fit an agent', () => {
  it('leaves a result within the limit (or with no limit) as it is', () => {
    assert.equal(limitResult('short', 100, 'view_dlg'), 'short');
    assert.equal(limitResult('x'.repeat(1000), 0, 'view_dlg'), 'x'.repeat(1000));
  });

  it('cuts at a line break, says how much and how to read on from the line after the last kept', () => {
    const text = Array.from({ length: 1000 }, (_, k) => `line ${k + 1}`).join('\n');
    const cut = limitResult(text, 400, 'view_msg', { id: 'a', start_line: 11 });
    const head = cut.slice(0, cut.indexOf('[… cut'));
    assert.ok(head.length <= 400 && head.endsWith('\n'));
    const kept = head.split('\n').length - 1;
    assert.match(cut, new RegExp(`\\[… cut: [\\d,]+ more characters \\([\\d,]+ lines\\) over the 100-token result limit\\. To read the rest, read on with view_msg\\(id, start_line=${11 + kept}\\)`));
    assert.match(limitResult(text, 400, 'python'), /print less at once/);
  });

  it('never splits a surrogate pair', () => {
    const cut = limitResult('😀'.repeat(100), 51, 'view_dlg');
    assert.ok(!/[\ud800-\udbff]\n/.test(cut));
  });

  it('read_msg and view_msg carry the images of the message: attachments always, outputs with incl_out', () => {
    const img = new Message({ id: 'img00001', msgType: 'code', content: 'plot()', output: [{ output_type: 'display_data', metadata: {}, data: { 'image/png': PNG, 'text/plain': '<Figure>' } }] });
    const att = new Message({ id: 'att00001', msgType: 'note', content: 'see ![](attachment:x)', attachments: [new Attachment(Uint8Array.from([1, 2, 3]), 'image/png', 'x')] });
    const d = new Dialog([img, att]);
    assert.deepEqual(planDialogTool(d, 'view_msg', { id: 'img00001', incl_out: true }, ctx).images, [{ mime: 'image/png', data: PNG }]);
    assert.deepEqual(planDialogTool(d, 'view_msg', { id: 'img00001' }, ctx).images, []);
    assert.deepEqual(planDialogTool(d, 'read_msg', { id: 'att00001', n: 0 }, ctx).images, [{ mime: 'image/png', data: 'AQID' }]);
  });
});

describe('agents: the set-up lines', () => {
  it("gives Claude Code's line with the header, Codex's with the token in an environment variable, and JSON", () => {
    const [claude, codex, toml, json] = setupLines('http://127.0.0.1:7316/mcp', 'tok');
    assert.equal(claude.text, 'claude mcp add --transport http dialogs http://127.0.0.1:7316/mcp --header "Authorization: Bearer tok"');
    assert.equal(codex.text, 'export DIALOGS_MCP_TOKEN=tok && codex mcp add dialogs --url http://127.0.0.1:7316/mcp --bearer-token-env-var DIALOGS_MCP_TOKEN');
    assert.match(toml.text, /^\[mcp_servers\.dialogs\]\nurl = "http:\/\/127\.0\.0\.1:7316\/mcp"\nbearer_token_env_var = "DIALOGS_MCP_TOKEN"\n$/);
    assert.deepEqual(JSON.parse(json.text), { mcpServers: { dialogs: { type: 'http', url: 'http://127.0.0.1:7316/mcp', headers: { Authorization: 'Bearer tok' } } } });
  });

  it('shows each line with the token masked, and copies it whole (issue 55.5)', () => {
    const token = 'a1'.repeat(32);
    for (const l of setupLines('http://127.0.0.1:7316/mcp', token)) {
      assert.equal(l.shown.includes(token), false, l.agent);
      assert.equal(l.shown, l.text.split(token).join(TOKEN_MASK), l.agent);
    }
    const [claude, codex] = setupLines('http://127.0.0.1:7316/mcp', token);
    assert.ok(claude.text.includes(token) && codex.text.includes(token));
    assert.equal(claude.shown, `claude mcp add --transport http dialogs http://127.0.0.1:7316/mcp --header "Authorization: Bearer ${TOKEN_MASK}"`);
  });
});
