// Solveit's `w` (issue 31): the fenced code blocks of a reply become code cells, in order; the reply's
// machinery (think blocks, tool calls in both wire forms) is no code to extract.
import { strict as assert } from 'node:assert';
import { codeBlocks, codeSources, fenced, mkToolBlock, thinkBlock, THINK_END, THINK_START } from '../../src/core/reply';

const REPLY = [
  'First load the data:',
  '',
  '```python',
  'import pandas as pd',
  "df = pd.read_csv('a.csv')",
  '```',
  '',
  'Then install the tool:',
  '',
  '1. In a list:',
  '',
  '   ```bash',
  '   pip install rich',
  '   ```',
  '',
  '~~~ py',
  'print(df.head())',
  '~~~',
  '',
  '```',
  '',
  '```',
].join('\n');

describe('codeBlocks: fenced code of a reply', () => {
  it('backtick and tilde fences, inside a list too, in order; the empty fence is left out', () => {
    assert.deepEqual(codeBlocks(REPLY), [
      { lang: 'python', code: "import pandas as pd\ndf = pd.read_csv('a.csv')" },
      { lang: 'bash', code: 'pip install rich' },
      { lang: 'py', code: 'print(df.head())' },
    ]);
  });

  it('tool calls (fenced and legacy) and think blocks are not code', () => {
    const tool = mkToolBlock({ id: 'toolu_1', name: 'python', args: { code: 'x = 1' }, result: '1' } as never);
    const legacy = ["<details class='tool-usage-details'>", '<summary>f()</summary>', '', '```json',
      JSON.stringify({ id: 'toolu_b', call: { function: 'f', arguments: {} }, result: 'ok' }, null, 2), '```', '', '</details>'].join('\n');
    const think = `${THINK_START}${thinkBlock('```python\nthought = 1\n```')}${THINK_END}\n`;
    const text = [think, tool, legacy, fenced('{"summary": "s"}', 'json {.usage}'), '```python\nkept = 2\n```'].join('\n\n');
    assert.deepEqual(codeBlocks(text), [{ lang: 'python', code: 'kept = 2' }]);
  });

  it('a Python dialog runs shell, JS and HTML through cell magics; others stay as written', () => {
    const blocks = [
      { lang: 'python', code: 'x = 1' },
      { lang: 'bash', code: 'ls' },
      { lang: 'sh', code: '%%bash\nls' },
      { lang: 'json', code: '{}' },
      { lang: '', code: 'y' },
    ];
    assert.deepEqual(codeSources(blocks, 'python'), ['x = 1', '%%bash\nls', '%%bash\nls', '{}', 'y']);
    assert.deepEqual(codeSources(blocks, 'julia'), ['x = 1', 'ls', '%%bash\nls', '{}', 'y']);
  });
});
