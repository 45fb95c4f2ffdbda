// Connecting an agent as a person does (issue 44): Dialog: Connect an Agent… from the Command Palette
// starts the agents' MCP server and shows its URL with a set-up line per agent; picking the Claude Code
// line copies it (read back from the browser's clipboard), and that line's URL and token let an MCP
// client in. The status bar shows the server while it runs. Saves agents.png.
// Issue 55.5: the list shows no token (a shared screen shows it to no one; the copied line holds it), and
// picking a row says what was copied and closes the list.

import { registered } from './lib/panelPage.mjs';

/** The quick input's row whose label holds `text`. */
const row = (page, text) => page.locator('.quick-input-widget .monaco-list-row', { hasText: text }).first();

export const tests = {
  async 'the connect command shows the URL and copies the Claude Code line'({ page, context, vsc, assert, screenshot, log }) {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await registered(page);
    await vsc.runCommand('Dialog: Connect an Agent…');
    const title = page.locator('.quick-input-widget .quick-input-title', { hasText: 'Agents connect at' });
    await title.waitFor({ timeout: 120000 });
    const url = /http:\/\/127\.0\.0\.1:\d+\/mcp/.exec(await title.textContent())?.[0];
    assert.ok(url, 'the title shows the URL');
    for (const agent of ['Claude Code', 'Codex', 'JSON']) await row(page, agent).waitFor();
    // Every row drawn, the token in none: masked where it stands ("Bearer ••••••••").
    const shown = await page.locator('.quick-input-widget .monaco-list-row').allTextContents();
    assert.ok(shown.length >= 5, `the rows: ${shown.length}`);
    assert.deepEqual(shown.filter((t) => /[0-9a-f]{64}/.test(t)), [], 'no row shows the token');
    assert.ok(shown.some((t) => t.includes('Bearer ••••••••')), 'the Claude Code row shows where the token goes, masked');
    await screenshot('agents');
    await row(page, 'Claude Code').hover();
    await row(page, 'Claude Code').click();
    // Said, and the list closed.
    await vsc.notification('Copied: Claude Code set-up line', { timeout: 30000 });
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 30000 });
    const line = await page.evaluate(() => navigator.clipboard.readText());
    const m = /^claude mcp add --transport http dialogs (\S+) --header "Authorization: Bearer ([0-9a-f]{64})"$/.exec(line);
    assert.ok(m, `the Claude Code line was copied: ${line.slice(0, 60)}`);
    assert.equal(m[1], url);
    // What the line says lets an agent in: an MCP initialize with its token is served.
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'ui-check', version: '1' } } };
    const res = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${m[2]}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify(init) });
    assert.equal(res.status, 200);
    assert.match(await res.text(), /"serverInfo":\{"name":"dialog-notebooks"/);
    await page.locator('.statusbar-item', { hasText: /agents?$/ }).first().waitFor({ timeout: 30000 });
    log(`copied the Claude Code line for ${url}`);
  },
};
