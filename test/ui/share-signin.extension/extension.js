// A GitHub sign-in for the e2e tests, offered through VS Code's own API as GitHub's built-in extension
// offers one (`contributes.authentication` + `authentication.registerAuthenticationProvider`). Signing in
// asks the GitHub stand-in (the server `github-enterprise.uri` names) for a token at its OAuth token
// endpoint, so each sign-in gets a new token the stand-in accepts until it revokes them. One session at a
// time: a new sign-in replaces the old one, as GitHub's provider does for the same scopes.
const vscode = require('vscode');

const ID = 'test-github';

function activate(context) {
  let sessions = [];
  const changed = new vscode.EventEmitter();
  const log = vscode.window.createOutputChannel('GitHub (test)');
  const provider = {
    onDidChangeSessions: changed.event,
    async getSessions(scopes) {
      return sessions.filter((s) => !scopes || scopes.every((x) => s.scopes.includes(x)));
    },
    async createSession(scopes) {
      const server = String(vscode.workspace.getConfiguration('github-enterprise').get('uri') || '').replace(/\/+$/, '');
      const r = await fetch(`${server}/login/oauth/access_token`, {
        method: 'POST',
        headers: { accept: 'application/json', 'content-type': 'application/json' },
        body: JSON.stringify({ client_id: 'dialog-e2e', device_code: 'dialog-e2e', grant_type: 'urn:ietf:params:oauth:grant-type:device_code' }),
      });
      if (!r.ok) throw new Error(`${server} answered ${r.status} to the sign-in`);
      const { access_token: accessToken } = await r.json();
      const session = { id: `test-github-${Date.now()}`, accessToken, account: { id: '1', label: 'octocat' }, scopes: [...scopes] };
      const removed = sessions;
      sessions = [session];
      log.appendLine(`signed in: session ${session.id} (${scopes.join(' ')})`);
      changed.fire({ added: [session], removed, changed: [] });
      return session;
    },
    async removeSession(id) {
      const removed = sessions.filter((s) => s.id === id);
      sessions = sessions.filter((s) => s.id !== id);
      changed.fire({ added: [], removed, changed: [] });
    },
  };
  context.subscriptions.push(changed, log, vscode.authentication.registerAuthenticationProvider(ID, 'GitHub (test)', provider, { supportsMultipleAccounts: false }));
}

module.exports = { activate, deactivate() {} };
