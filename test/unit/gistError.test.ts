// What a failed gist request says (src/extension/share/gist.ts): the next step for each answer, and in a
// browser (vscode.dev) that a server refusing cross-origin requests cannot be used from there.
import assert from 'node:assert/strict';
import { gistError } from '../../src/extension/share/gist';

describe('gistError', () => {
  it('a request that got no answer: offline on the desktop; in a browser it also names CORS and the desktop', () => {
    const desktop = gistError(new TypeError('fetch failed'), 'GitHub');
    assert.equal(desktop.kind, 'offline');
    assert.match(desktop.message, /^GitHub could not be reached \(fetch failed\): nothing was published\. Check the connection and try again\.$/);
    const browser = gistError(new TypeError('Failed to fetch'), 'ghe.example.com', true);
    assert.equal(browser.kind, 'offline');
    assert.match(browser.message, /^ghe\.example\.com could not be reached from the browser \(Failed to fetch\): nothing was published\. Check the connection; if it holds, most likely the site refuses cross-origin reads \(CORS\), which VS Code in a browser needs\. VS Code desktop reads any site\.$/);
  });

  it('GitHub answers: 401 asks to sign in again, 422 says GitHub’s reason', () => {
    const e401 = gistError({ status: 401, response: { data: { message: 'Bad credentials' } } }, 'GitHub', true);
    assert.equal(e401.kind, 'signin');
    assert.match(e401.message, /refused the sign-in \(401: Bad credentials\): sign in again and retry/);
    const e422 = gistError({ status: 422, response: { data: { message: 'Validation Failed', errors: [{ field: 'files', code: 'missing_field' }] } } }, 'GitHub');
    assert.equal(e422.kind, 'refused');
    assert.match(e422.message, /422: Validation Failed: files missing_field/);
  });
});
