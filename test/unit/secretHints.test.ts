// Messages name only the fixes that work where the extension runs: no environment variable in a browser.
import { strict as assert } from 'node:assert';
import { noKeyMessage, secretHint, tokenRefusedHint } from '../../src/extension/secretHints';

describe('secret hints', () => {
  it('name the environment variable on the desktop only', () => {
    assert.equal(secretHint('desktop', 'Dialog: Set API Key…', 'ANTHROPIC_API_KEY'), 'Dialog: Set API Key…, or ANTHROPIC_API_KEY');
    assert.equal(secretHint('browser', 'Dialog: Set API Key…', 'ANTHROPIC_API_KEY'), 'Dialog: Set API Key…');
  });

  it('no key and a refused token: the command always, the variable on the desktop', () => {
    assert.equal(noKeyMessage('openai', 'desktop'), 'No OpenAI API key: set one with Dialog: Set API Key…, or OPENAI_API_KEY.');
    assert.equal(noKeyMessage('openai', 'browser'), 'No OpenAI API key: set one with Dialog: Set API Key…');
    assert.match(tokenRefusedHint('desktop'), /Dialog: Set Jupyter Token…, or JUPYTER_TOKEN/);
    assert.doesNotMatch(tokenRefusedHint('browser'), /JUPYTER_TOKEN/);
  });
});
