// Entering a provider's API key as a person does: Dialog: Set API Key…, the provider, the key, Enter.

/** Sets `provider`'s key (its label in the pick list, e.g. 'Anthropic') through the command palette. */
export async function setApiKey(page, vsc, provider, key) {
  await vsc.runCommand('Dialog: Set API Key…');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: provider }).first().click();
  const box = page.locator('.quick-input-widget input[type="password"]');
  await box.waitFor({ timeout: 30000 });
  await box.fill(key);
  await box.press('Enter');
  await box.waitFor({ state: 'hidden', timeout: 30000 });
}
