// A reply with HTML that could run or load something reaches the notebook only in the mime of our
// sanitising reply renderer (src/renderer; test/ui/reply-xss.mjs shows it inert), never as markdown
// another renderer could show; and it is saved exactly as written.
import * as assert from 'assert';
import { REPLY_MIME } from '../../src/shared/replyOutput';
import { closeAll, openDialog, readText, replyText, save, setCellText, writeText } from './helpers';

const REPLY = 'Look: <iframe src="https://evil.example/"></iframe> and [click](javascript:alert(1)).\n\n`<iframe>` in code stays.';
const SEP = '\n\n##### 🤖Reply🤖<!-- SOLVEIT_SEPARATOR_7f3a9b2c -->\n\n';
const lines = (s: string) => s.split(/(?<=\n)/);
const TEXT =
  JSON.stringify(
    {
      cells: [
        { cell_type: 'markdown', id: 'n1', metadata: {}, source: ['A note'] },
        { cell_type: 'markdown', id: 'p1', metadata: { solveit_ai: true }, source: lines('What is this?' + SEP + REPLY) },
      ],
      metadata: {},
      nbformat: 4,
      nbformat_minor: 5,
    },
    null,
    1,
  ) + '\n';

describe('untrusted replies', function () {
  this.timeout(60000);
  // A fresh file per test: rewriting one the previous test had open makes VS Code's copy older than the
  // disk, and its save then refuses.
  let runs = 0;
  let file = '';
  beforeEach(() => writeText((file = `scratch/untrusted-reply-${++runs}.ipynb`), TEXT));
  afterEach(closeAll);

  it('hands the reply, as written, only to the sanitising reply renderer', async () => {
    const nb = await openDialog(file);
    const items = nb.cellAt(1).outputs.flatMap((o) => o.items);
    assert.deepStrictEqual(
      items.map((i) => i.mime),
      [REPLY_MIME],
      'no text/markdown item: no other renderer can be picked to show it unsanitised',
    );
    assert.strictEqual(replyText(nb.cellAt(1)), REPLY);
    assert.strictEqual(nb.isDirty, false);
  });

  it('saves the reply exactly as written, also after an edit elsewhere', async () => {
    const nb = await openDialog(file);
    await setCellText(nb.cellAt(0), 'A changed note');
    assert.ok(await save(nb));
    const saved = JSON.parse(await readText(file));
    assert.strictEqual(saved.cells[1].source.join(''), 'What is this?' + SEP + REPLY);
    assert.strictEqual(saved.cells[0].source.join(''), 'A changed note');
  });
});
