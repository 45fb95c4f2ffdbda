// bench/memory.sh: inside the real VS Code, answers 200 prompts in a row in one window against the
// Anthropic mock (20 prompts of one dialog, each answered 10 times, so the dialog keeps its size) and
// reports the extension host's heap after a garbage collection: before, every 50 answers, after.
// Writes memory-results.md into the workspace. Not part of `npm test`.
import { writeFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import * as vscode from 'vscode';
import { Message, TOKEN_TAG } from '../../src/core';
import { cellOf, execute, freshDialog, replyText, until, useMockProviders } from '../../test/extension/helpers';

const ANSWERS = 200;
const PROMPTS = 20;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heapMb = () => {
  for (let k = 0; k < 3; k++) gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
};

describe('memory while answering', function () {
  this.timeout(3_600_000);
  const { ant } = useMockProviders('anthropic:claude-e2e', { providers: ['anthropic'] });

  it(`answers ${ANSWERS} prompts in a row`, async () => {
    const ids = Array.from({ length: PROMPTS }, (_, k) => `prmt${String(k).padStart(4, '0')}`);
    const { nb } = await freshDialog('memory', ids.flatMap((id, k) => [new Message({ id: `note${String(k).padStart(4, '0')}`, msgType: 'note', content: `## Step ${k}` }), new Message({ id, msgType: 'prompt', content: `Question ${k}?` })]));
    const rows: [number, number][] = [];
    const answer = async (n: number) => {
      const id = ids[n % PROMPTS];
      ant.enqueue({ text: Array.from({ length: 20 }, (_, k) => `answer ${n} part ${k} ${'lorem ipsum '.repeat(8)}\n`) });
      await execute(nb, id);
      await until(() => replyText(cellOf(nb, id)).startsWith(`answer ${n} part 0`) && replyText(cellOf(nb, id)).includes(TOKEN_TAG), `answer ${n}`, 120_000);
    };
    // A warm-up round: the SDK, the renderer and the caches load once.
    for (let n = 0; n < PROMPTS; n++) await answer(n);
    rows.push([0, heapMb()]);
    for (let n = 1; n <= ANSWERS; n++) {
      await answer(PROMPTS + n);
      if (n % 50 === 0) rows.push([n, heapMb()]);
    }
    const table = ['| answers | extension host heap (MB, after GC) |', '| ---: | ---: |', ...rows.map(([n, mb]) => `| ${n} | ${mb.toFixed(1)} |`)].join('\n');
    const folder = vscode.workspace.workspaceFolders![0].uri.fsPath;
    writeFileSync(`${folder}/memory-results.md`, `${table}\n\nGrowth over ${ANSWERS} answers: ${(rows[rows.length - 1][1] - rows[0][1]).toFixed(1)} MB\n`);
    console.log(table);
  });
});
