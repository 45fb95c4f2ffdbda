// What a person sees of Dialog: Share… (vscode-e2e.sh `run`): the preview beside the dialog shows the
// page readers get (the prompt quoted, its reply below, the pinned note left out) and stops the share
// because a cell holds a GitHub token, naming the message and line; leaving that message out clears it
// and Publish comes on. Saves share-preview-secret.png and share-preview-clean.png.

export const tests = {
  async 'the preview stops a share that holds a token, and leaving the message out clears it'({ page, vsc, screenshot, assert }) {
    await vsc.quickOpen('share-secret.ipynb');
    await vsc.waitForNotebook({ timeout: 60000 });
    await vsc.runCommand('Dialog: Open as Dialog');
    await page.locator('.notebookOverlay:visible .cell-statusbar-container', { hasText: 'prompt' }).first().waitFor({ timeout: 60000 });
    await vsc.runCommand('Dialog: Share…');

    const hit = await vsc.webview('.secrets .hit', { timeout: 60000 });
    assert.match(await hit.first().innerText(), /message 2, line 1: GitHub Token.* ghp_•+yz/);
    const publish = await vsc.webview('#publish');
    assert.equal(await publish.isDisabled(), true, 'Publish is off while something looks secret');
    const quote = await vsc.webview('main.page blockquote >> text=How do I list my gists?');
    assert.ok(await quote.count(), 'the prompt is quoted');
    const left = await vsc.webview('.left-out >> text=message 3: pinned');
    assert.ok(await left.count(), 'the pinned note is said to be left out');
    const page_ = await vsc.webview('main.page');
    assert.ok(!/Pinned background/.test(await page_.innerText()), 'the pinned note is not on the page');
    await screenshot('share-preview-secret');

    await (await vsc.webview('button >> text=Leave out message 2')).click();
    await vsc.webview('.secrets.clean', { timeout: 30000 });
    assert.equal(await (await vsc.webview('#publish')).isDisabled(), false, 'Publish comes on');
    const chosen = await vsc.webview('.left-out >> text=message 2: left out by you');
    assert.ok(await chosen.count());
    await screenshot('share-preview-clean');
  },
};
