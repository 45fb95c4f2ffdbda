// The dialog tools on the wire: VS Code's language models get calls and results as parts when tools are
// offered, and package.json contributes every dialog tool to VS Code's agents with its schema.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { textPart, toolResult, toolUse } from '../../src/core';
import { AGENT_TOOL_PREFIX, DIALOG_TOOLS, agentToolSchema } from '../../src/core/tools';
import { lmToolTurns } from '../../src/extension/answer/providers/vscodeLmWire';

describe('dialog tools: wire and contributions', () => {
  it('VS Code LM: offered calls and their results are parts, others text, the system prompt first, texts that meet joined', () => {
    const turns = lmToolTurns({
      model: 'm',
      system: 'Be brief.',
      maxTokens: 100,
      tools: [{ name: 'add_msg', description: '', parameters: {} }],
      messages: [
        { role: 'user', content: [textPart('Add a note.')] },
        { role: 'assistant', content: [textPart('Adding.'), toolUse('toolu_1', 'add_msg', { content: 'hi' }), toolUse('toolu_2', 'old_tool', { a: 1 })] },
        { role: 'tool', content: [toolResult('toolu_1', 'add_msg', 'abcd1234', { content: 'hi' }), toolResult('toolu_2', 'old_tool', 'x', { a: 1 })] },
      ],
    });
    // Texts that meet are one, as without tools (lmTurns): a provider joining parts as they are reads the same words.
    assert.deepEqual(turns[0], { role: 'user', parts: [{ type: 'text', text: 'Be brief.\n\nAdd a note.' }] });
    assert.equal(turns[1].role, 'assistant');
    assert.deepEqual(turns[1].parts[1], { type: 'call', id: 'toolu_1', name: 'add_msg', input: { content: 'hi' } });
    assert.equal(turns[1].parts[2].type, 'text', 'a call of a tool not offered goes as text');
    assert.deepEqual(turns[2].parts[0], { type: 'result', id: 'toolu_1', text: 'abcd1234' });
    assert.equal(turns.length, 3);
  });

  it('package.json contributes dialog_<tool> for every dialog tool, with its schema and the dialog parameter', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { contributes: { languageModelTools: { name: string; inputSchema: unknown; modelDescription: string }[]; commands: { command: string }[] } };
    const contributed = new Map(pkg.contributes.languageModelTools.map((t) => [t.name, t]));
    for (const def of DIALOG_TOOLS) {
      const t = contributed.get(AGENT_TOOL_PREFIX + def.name);
      assert.ok(t, def.name);
      assert.deepEqual(t.inputSchema, agentToolSchema(def), `${def.name}: regenerate its contribution from core/tools/defs.ts`);
      assert.ok(t.modelDescription.startsWith(def.description), def.name);
    }
    assert.ok(pkg.contributes.commands.some((c) => c.command === 'dialogNotebook.toggleTools'));
  });
});
