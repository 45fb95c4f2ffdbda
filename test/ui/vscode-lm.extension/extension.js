// A language model for the e2e tests, offered through VS Code's own API as a model extension offers one
// (`contributes.languageModelChatProviders` + `lm.registerLanguageModelChatProvider`): it streams back,
// in two parts, how many messages it got and the last line of the last one, so a test sees what was sent.
const vscode = require('vscode');

const MODEL = {
  id: 'dialog-e2e-echo',
  name: 'Dialog E2E Echo',
  family: 'dialog-e2e',
  version: '1',
  maxInputTokens: 100000,
  maxOutputTokens: 4000,
  capabilities: {},
};

const text = (m) => (typeof m === 'string' ? m : m.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join(''));

function activate(context) {
  context.subscriptions.push(
    vscode.lm.registerLanguageModelChatProvider('dialog-e2e', {
      provideLanguageModelChatInformation: () => [MODEL],
      async provideLanguageModelChatResponse(_model, messages, _options, progress) {
        progress.report(new vscode.LanguageModelTextPart(`LM-E2E got ${messages.length} messages. `));
        progress.report(new vscode.LanguageModelTextPart(`It heard: ${text(messages[messages.length - 1]).trim().split('\n').pop()}`));
      },
      provideTokenCount: async (_model, m) => Math.ceil(text(m).length / 4),
    }),
  );
}

module.exports = { activate, deactivate() {} };
