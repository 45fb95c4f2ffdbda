// Forks (issue 11): forkDialog on real dialogs, the lineage they record and the family tree built from
// it (moved, deleted and looping parents), the seed's overview texts, and the fork / tree / overview
// commands on temporary folders.
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Dialog, DialogError, JsonObject, Message, aiRes, readIpynb, truthy, writeIpynb } from '../../src/core';
import {
  LINEAGE_KEY,
  LineageEntry,
  buildLineageTree,
  defaultForkPath,
  dlg2lineage,
  dlg2overview,
  findParent,
  forkDialog,
  forkPoint,
  keptIndices,
  lineageEntry,
  nameBesideParent,
  relativePath,
  resolvePath,
  treeOverview,
} from '../../src/core/fork';
import { forkCommand } from '../../src/cli/fork';
import { CliIo } from '../../src/cli/io';
import { overviewCommand } from '../../src/cli/overview';
import { CliError } from '../../src/cli/readFile';
import { treeCommand } from '../../src/cli/tree';
import { SHARED, corpusFiles } from './corpus';
import { firstLine } from '../../src/core/outline';

const corpus = (p: string) => join(SHARED, 'corpus', p);
const read = (p: string) => readIpynb(readFileSync(p, 'utf8'));
const TIME = '2025-03-01T10:00:00.000Z';
const at = (minutes: number) => new Date(Date.parse(TIME) + minutes * 60000).toISOString();

/** Everything a message holds, for comparing a fork's copy with its original. */
function state(m: Message) {
  return {
    id: m.id,
    msgType: m.msgType,
    content: m.content,
    output: JSON.stringify(m.output),
    meta: JSON.stringify(m.meta),
    flags: [m.pinned, m.skipped],
    attachments: m.attachments.map((a) => [a.id, a.contentType, Buffer.from(a.data).toString('base64'), a.invalidBase64]),
  };
}

const temps: string[] = [];
after(() => temps.forEach((d) => rmSync(d, { recursive: true, force: true })));

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'dlg-fork-'));
  temps.push(d);
  return d;
}

/** Forks the file `parent` at `id` into `out` (same folder frame), writes it and returns it read back. */
function forkFile(parent: string, id: string, out: string, opts: { firstK?: number; lastN?: number; time?: string } = {}): Dialog {
  const fork = forkDialog(read(parent), id, { parentPath: parent, forkPath: out, time: opts.time ?? TIME, ...opts });
  writeFileSync(out, writeIpynb(fork));
  return read(out);
}

function captured(): CliIo & { stdout: string; stderr: string } {
  const io = { stdout: '', stderr: '', out: (s: string) => void (io.stdout += s), err: (s: string) => void (io.stderr += s) };
  return io;
}

describe('fork: forkDialog', () => {
  const CHAT = corpus('public/drscotthawley__midi-rae__main_chat.ipynb');

  it('a fork of a fork of a fork: each holds its parent up to the split, records it, and leaves the parent alone', () => {
    const dir = tempDir();
    const p0 = join(dir, 'chat.ipynb');
    copyFileSync(CHAT, p0);
    const original = readFileSync(p0, 'utf8');
    const chat = read(p0);
    const ids = chat.messages.map((m) => m.id);
    mkdirSync(join(dir, 'b'));
    const chain = [
      { path: p0, split: -1 },
      { path: join(dir, 'f1.ipynb'), split: 200 },
      { path: join(dir, 'b', 'f2.ipynb'), split: 120 },
      { path: join(dir, 'f3.ipynb'), split: 40 },
    ];
    for (let k = 1; k < chain.length; k++) {
      const { path, split } = chain[k];
      const parent = chain[k - 1].path;
      const before = readFileSync(parent, 'utf8');
      const fork = forkFile(parent, ids[split], path, { time: at(k) });
      assert.equal(readFileSync(parent, 'utf8'), before, 'the parent file is not touched');
      assert.deepEqual(fork.messages.map(state), chat.messages.slice(0, split + 1).map(state));
      const l = dlg2lineage(fork)!;
      assert.deepEqual(l, { parent: relativePath(path, parent), parentMsg: ids[split], split, time: at(k) });
      assert.equal(resolvePath(path, l.parent), parent);
    }
    assert.equal(dlg2lineage(read(join(dir, 'b', 'f2.ipynb')))!.parent, '../f1.ipynb');
    assert.equal(dlg2lineage(read(join(dir, 'f3.ipynb')))!.parent, 'b/f2.ipynb');
    assert.equal(writeIpynb(chat), original, 'forking changed nothing of the parent dialog in memory');

    const entries = chain.map(({ path }) => lineageEntry(path.slice(dir.length + 1), read(path)));
    assert.equal(
      treeOverview(buildLineageTree(entries)),
      ['[chat.ipynb] msgs=232 split@None', '  └─ [f1.ipynb] msgs=201 split@200', '    └─ [b/f2.ipynb] msgs=121 split@120', '      └─ [f3.ipynb] msgs=41 split@40'].join('\n'),
    );
  });

  it('first_k / last_n keep the first k and last n messages up to the split, as the seed', () => {
    assert.deepEqual(keptIndices(5, {}), [0, 1, 2, 3, 4, 5]);
    assert.deepEqual(keptIndices(5, { lastN: 2 }), [0, 4, 5], 'first_k defaults to 1');
    assert.deepEqual(keptIndices(5, { firstK: 2, lastN: 1 }), [0, 1, 5]);
    assert.deepEqual(keptIndices(5, { firstK: 0, lastN: 3 }), [3, 4, 5]);
    assert.deepEqual(keptIndices(5, { firstK: 4, lastN: 4 }), [0, 1, 2, 3, 4, 5], 'overlapping ranges keep each message once');
    assert.deepEqual(keptIndices(0, { firstK: 3, lastN: 3 }), [0]);

    const d = read(CHAT);
    const fork = forkDialog(d, d.messages[30].id, { parentPath: 'chat.ipynb', forkPath: 'short.ipynb', time: TIME, firstK: 2, lastN: 3 });
    assert.deepEqual(fork.messages.map(state), [0, 1, 28, 29, 30].map((i) => state(d.messages[i])));
    const l = dlg2lineage(fork)!;
    assert.equal(fork.name, 'short');
    assert.deepEqual([l.split, l.firstK, l.lastN, l.parentMsg], [30, 2, 3, d.messages[30].id]);
    assert.deepEqual(forkPoint(d.messages.map((m) => m.id), fork.messages.map((m) => m.id), l), { parent: 30, fork: 4 });
  });

  it('refuses out-of-range options, naming them', () => {
    const d = read(CHAT);
    const o = { parentPath: 'a.ipynb', forkPath: 'b.ipynb', time: TIME };
    const id = d.messages[3].id;
    assert.throws(() => forkDialog(d, id, { ...o, firstK: 2 }), /first_k needs last_n > 0/);
    assert.throws(() => forkDialog(d, id, { ...o, lastN: -1 }), /last_n must be a whole number/);
    assert.throws(() => forkDialog(d, id, { ...o, lastN: 1.5 }), /last_n must be a whole number/);
    assert.throws(() => forkDialog(d, id, { ...o, time: 'yesterday' }), /time must be an ISO date-time/);
  });

  it('carries the attachments of the messages it keeps, and no others', () => {
    for (const f of ['public/ExploringML__solveit-to-social-media__Demo.ipynb', 'public/drscotthawley__midi-rae__main_chat.ipynb']) {
      const d = read(corpus(f));
      const withAtt = d.messages.map((m, i) => [m, i] as const).filter(([m]) => m.attachments.length);
      assert.ok(withAtt.length >= 2, f);
      const [, first] = withAtt[0];
      const [, second] = withAtt[1];
      const whole = readIpynb(writeIpynb(forkDialog(d, d.messages[second].id, { parentPath: 'p.ipynb', forkPath: 'f.ipynb', time: TIME })));
      for (const i of [first, second]) assert.deepEqual(state(whole.messages[i]), state(d.messages[i]), `${f}: message ${i}`);
      const part = forkDialog(d, d.messages[second - 1].id, { parentPath: 'p.ipynb', forkPath: 'f.ipynb', time: TIME });
      const atts = part.messages.flatMap((m) => m.attachments.map((a) => a.id));
      assert.deepEqual(atts, d.messages[first].attachments.map((a) => a.id), `${f}: only the kept messages' attachments`);
    }
  });

  it('a fork file reads back unchanged: write, read, write gives the same bytes, for every corpus dialog', () => {
    for (const f of corpusFiles(['public', 'synthetic'])) {
      let d: Dialog;
      try {
        d = read(f.path);
      } catch {
        continue; // the deliberately unreadable synthetic files
      }
      if (!d.messages.length || new Set(d.messages.map((m) => m.id)).size < d.messages.length) continue;
      const fork = forkDialog(d, d.messages[Math.floor(d.messages.length / 2)].id, { parentPath: 'x/p.ipynb', forkPath: 'x/f.ipynb', time: TIME });
      const text = writeIpynb(fork);
      const back = readIpynb(text);
      assert.equal(writeIpynb(back), text, f.stem);
      // An id-less cell stays id-less in the fork (and so gets a new in-memory id on every read).
      const withoutId = (m: Message) => ({ ...state(m), id: undefined });
      assert.deepEqual(back.messages.map(withoutId), fork.messages.map(withoutId), f.stem);
      assert.deepEqual(dlg2lineage(back), dlg2lineage(fork), f.stem);
      const { [LINEAGE_KEY]: _, ...rest } = back.meta;
      assert.deepEqual(rest, d.meta, `${f.stem}: the parent's notebook metadata comes along`);
    }
  });

  it('refuses a dialog with duplicate ids, and an id the dialog does not have, changing nothing', () => {
    const path = corpus('synthetic/edge_duplicate_ids.ipynb');
    const text = readFileSync(path, 'utf8');
    const dup = readIpynb(text);
    const o = { parentPath: 'p.ipynb', forkPath: 'f.ipynb', time: TIME };
    assert.throws(
      () => forkDialog(dup, dup.messages[0].id, o),
      (e: unknown) => e instanceof DialogError && /^cannot fork: duplicate message id\(s\): dup1; /.test(e.message),
    );
    assert.equal(writeIpynb(dup), text);
    const d = read(CHAT);
    assert.throws(() => forkDialog(d, 'zzzz', o), (e: unknown) => e instanceof DialogError && e.message === "cannot fork: no message id: 'zzzz'");
    assert.ok(forkDialog(d, d.messages[5].id.slice(0, 6), o).messages.length === 6, 'a unique id prefix is enough, as everywhere');
  });

  it('clearReply empties the reply of the prompt forked at (Fork and Rerun), and only a prompt', () => {
    const d = read(CHAT);
    const o = { parentPath: 'p.ipynb', forkPath: 'f.ipynb', time: TIME, clearReply: true };
    const k = d.messages.findIndex((m) => m.msgType === 'prompt' && aiRes(m));
    const fork = readIpynb(writeIpynb(forkDialog(d, d.messages[k].id, o)));
    assert.equal(aiRes(fork.messages[k]), '');
    assert.equal(fork.messages[k].content, d.messages[k].content);
    assert.ok(aiRes(d.messages[k]), 'the parent keeps its reply');
    const code = d.messages.find((m) => m.msgType === 'code')!;
    assert.throws(() => forkDialog(d, code.id, o), /cannot clear the reply of .*: it is a code, not a prompt/);
  });

  it('paths: relative to the fork, resolved back, a free default name', () => {
    assert.equal(relativePath('/w/a/b/fork.ipynb', '/w/a/p.ipynb'), '../p.ipynb');
    assert.equal(relativePath('/w/fork.ipynb', '/w/x/y/p.ipynb'), 'x/y/p.ipynb');
    assert.equal(relativePath('C:/w/f.ipynb', 'D:/p.ipynb'), 'D:/p.ipynb', 'another drive: no relative path');
    assert.equal(resolvePath('a/b/f.ipynb', '../../p.ipynb'), 'p.ipynb');
    assert.equal(resolvePath('a/f.ipynb', '../../p.ipynb'), '../p.ipynb', 'outside the frame stays visible');
    assert.equal(resolvePath('/w/./a//f.ipynb', '../p.ipynb'), '/w/p.ipynb');
    assert.equal(defaultForkPath('/w/chat.ipynb', ['chat.ipynb', 'chat.fork-1.ipynb']), '/w/chat.fork-2.ipynb');
    assert.equal(defaultForkPath('/w/chat.fork-2.ipynb', ['chat.fork-1.ipynb', 'chat.fork-2.ipynb']), '/w/chat.fork-3.ipynb');
  });
});

describe('fork: the lineage tree', () => {
  // A parent and three forks as they would be read: p ← f1 ← f2, p ← f3. f2 is forked at a message
  // written in f1 after its fork, so only f1 holds it.
  function family(): LineageEntry[] {
    const p = read(corpus('public/ExploringML__solveit-to-social-media__Demo.ipynb'));
    const ids = p.messages.map((m) => m.id);
    const f1 = forkDialog(p, ids[5], { parentPath: 'p.ipynb', forkPath: 'f1.ipynb', time: at(1) });
    const own = f1.mkMessage({ id: 'f1own01', msgType: 'note', content: 'written in f1' });
    const f2 = forkDialog(f1, own.id, { parentPath: 'f1.ipynb', forkPath: 'sub/f2.ipynb', time: at(2) });
    const f3 = forkDialog(p, ids[6], { parentPath: 'p.ipynb', forkPath: 'f3.ipynb', time: at(3) });
    return [lineageEntry('p.ipynb', p), lineageEntry('f1.ipynb', f1), lineageEntry('sub/f2.ipynb', f2), lineageEntry('f3.ipynb', f3)];
  }
  const rename = (es: LineageEntry[], from: string, to: string) => es.map((e) => (e.path === from ? { ...e, path: to } : e));
  const withLineage = (e: LineageEntry, change: object): LineageEntry => ({ ...e, lineage: { ...e.lineage!, ...change } });

  it('nests forks under their parents, children in fork-time order', () => {
    const tree = buildLineageTree(family());
    assert.deepEqual(tree.cycles, []);
    assert.equal(
      treeOverview(tree),
      ['[p.ipynb] msgs=8 split@None', '  └─ [f1.ipynb] msgs=7 split@5', '    └─ [sub/f2.ipynb] msgs=7 split@6', '  └─ [f3.ipynb] msgs=7 split@6'].join('\n'),
    );
  });

  it("each fork's node carries the first line of its split message; a name shows what it adds to its parent's", () => {
    const p = read(corpus('public/ExploringML__solveit-to-social-media__Demo.ipynb'));
    const tree = buildLineageTree(family());
    const f1 = tree.roots[0].children[0];
    assert.equal(f1.path, 'f1.ipynb');
    assert.equal(f1.splitLine, firstLine(p.messages[5].content));
    assert.ok(f1.splitLine);
    assert.equal(tree.roots[0].splitLine, undefined, 'an original has no split');
    assert.equal(nameBesideParent('basic.fork-2', 'basic'), 'fork-2');
    assert.equal(nameBesideParent('basic.fork-1.fork-1', 'basic.fork-1'), 'fork-1');
    assert.equal(nameBesideParent('experiment', 'basic'), 'experiment');
    assert.equal(nameBesideParent('basic', 'basic'), 'basic');
  });

  it('a renamed or moved parent is found by the split message id', () => {
    const es = rename(family(), 'p.ipynb', 'renamed.ipynb');
    const tree = buildLineageTree(es);
    assert.equal(
      treeOverview(tree),
      [
        '[renamed.ipynb] msgs=8 split@None',
        `  └─ [f1.ipynb] msgs=7 split@5 (not at p.ipynb: found by message ${es[1].lineage!.parentMsg})`,
        '    └─ [sub/f2.ipynb] msgs=7 split@6',
        `  └─ [f3.ipynb] msgs=7 split@6 (not at p.ipynb: found by message ${es[3].lineage!.parentMsg})`,
      ].join('\n'),
    );
    assert.deepEqual(findParent(es[1], es), { path: 'renamed.ipynb', foundBy: 'message' });
  });

  it('among dialogs holding the split message: the same file name, then the oldest, never a later one', () => {
    const [p, f1, , f3] = family();
    // g is forked from f1 at a message p holds too.
    const g: LineageEntry = { path: 'g.ipynb', ids: f1.ids.slice(0, 4), lineage: { parent: 'f1.ipynb', parentMsg: f1.ids[3], split: 3, time: at(5) } };
    const moved = rename([p, f1, f3, g], 'f1.ipynb', 'old/f1.ipynb');
    assert.deepEqual(findParent(g, moved), { path: 'old/f1.ipynb', foundBy: 'message' }, 'moved: same name');
    const renamed = rename([p, f1, f3, g], 'f1.ipynb', 'other.ipynb');
    assert.deepEqual(findParent(g, renamed), { path: 'p.ipynb', foundBy: 'message' }, 'renamed: the original before its forks');
    const [f1later] = rename([withLineage(f1, { time: at(9) })], 'f1.ipynb', 'f1x.ipynb');
    assert.deepEqual(findParent(g, [f1later, g]), { path: 'f1.ipynb', foundBy: 'missing' }, 'a dialog born after the fork is not its parent');
  });

  it('a deleted parent shows as missing, its forks under it', () => {
    const es = family().filter((e) => e.path !== 'f1.ipynb');
    const tree = buildLineageTree(es);
    assert.equal(treeOverview(tree), ['[f1.ipynb] missing', '  └─ [sub/f2.ipynb] msgs=7 split@6', '[p.ipynb] msgs=8 split@None', '  └─ [f3.ipynb] msgs=7 split@6'].join('\n'));
    assert.deepEqual(findParent(es[1], es), { path: 'f1.ipynb', foundBy: 'missing' });
  });

  it('a cycle in hand-edited lineage is reported and cut, each dialog shown once', () => {
    const [p, f1, f2, f3] = family();
    // f1 now claims f2 as its parent: f1 → f2 → f1.
    const es = [p, withLineage(f1, { parent: 'sub/f2.ipynb' }), f2, f3];
    const tree = buildLineageTree(es);
    assert.deepEqual(tree.cycles, [['f1.ipynb', 'sub/f2.ipynb', 'f1.ipynb']]);
    assert.equal(
      treeOverview(tree),
      [
        '[f1.ipynb] msgs=7 split@5 (cycle: f1.ipynb → sub/f2.ipynb → f1.ipynb)',
        '  └─ [sub/f2.ipynb] msgs=7 split@6',
        '[p.ipynb] msgs=8 split@None',
        '  └─ [f3.ipynb] msgs=7 split@6',
      ].join('\n'),
    );
    const self = buildLineageTree([p, withLineage(f1, { parent: 'f1.ipynb' })]);
    assert.deepEqual(self.cycles, [['f1.ipynb', 'f1.ipynb']]);
  });

  it('malformed lineage metadata is reported on the dialog, not thrown', () => {
    const d = new Dialog([new Message({ id: 'a1' })], 'bad', { [LINEAGE_KEY]: { parent: 'p.ipynb', split: 'two' } as JsonObject });
    assert.throws(() => dlg2lineage(d), /malformed dialog_lineage metadata: parent_msg: /);
    const e = lineageEntry('bad.ipynb', d);
    assert.equal(e.lineage, null);
    assert.match(treeOverview(buildLineageTree([e])), /^\[bad\.ipynb\] msgs=1 split@None \(malformed dialog_lineage metadata: /);
    assert.equal(dlg2lineage(new Dialog([], 'plain', {})), null);
  });
});

describe('fork: overview', () => {
  it("one numbered line per message: the preview row cut to 100, a prompt's reply size, pinned / skipped", () => {
    for (const f of ['public/AnswerDotAI__fastllm__03_acomplete.ipynb', 'public/AnswerDotAI__dialoghelper__02_inspecttools.ipynb']) {
      const d = read(corpus(f));
      const lines = dlg2overview(d).split('\n');
      assert.equal(lines.length, d.messages.length, f);
      d.messages.forEach((m, i) => {
        const line = lines[i];
        assert.ok(line.trimStart().startsWith(`${i}. ${m.id}:${m.msgType[0]}`), line);
        assert.equal(/ {2}\[(pinned|skipped|pinned, skipped)\]$/.test(line), truthy(m.pinned) || truthy(m.skipped), line);
        if (m.msgType === 'prompt' && aiRes(m)) assert.match(line, / ⇒ reply\([\d.]+k?\)/);
      });
      assert.ok(lines.some((l) => / {2}\[(pinned|skipped)\]$/.test(l)), `${f} has a flagged message`);
    }
  });
});

describe('fork: dlg fork / tree / overview', () => {
  const DEMO = corpus('public/ExploringML__solveit-to-social-media__Demo.ipynb');
  const ids = read(DEMO).messages.map((m) => m.id);

  /** Runs a command as main.ts does: its exit code, or that of the CliError it throws, and what it wrote. */
  async function run(cmd: (a: string[], io: CliIo) => Promise<number>, ...args: string[]) {
    const io = captured();
    let code: number;
    let message = '';
    try {
      code = await cmd(args, io);
    } catch (e) {
      if (!(e instanceof CliError)) throw e;
      [code, message] = [e.exitCode, e.message];
    }
    return { code, message, stdout: io.stdout, stderr: io.stderr };
  }

  it('fork writes the fork, refuses an existing OUT unless --force, and never its own FILE', async () => {
    const dir = tempDir();
    const parent = join(dir, 'demo.ipynb');
    copyFileSync(DEMO, parent);
    const out = join(dir, 'sub', 'demo.fork-1.ipynb');
    mkdirSync(join(dir, 'sub'));
    const r = await run(forkCommand, parent, '--at', ids[5], '--first-k', '1', '--last-n', '2', '-o', out);
    assert.equal(r.code, 0, r.message);
    assert.match(r.stdout, /demo\.fork-1\.ipynb: 3 messages, forked from .*demo\.ipynb at 898245f7 \(split@5\)\n$/);
    const fork = read(out);
    assert.deepEqual(fork.messages.map((m) => m.id), [ids[0], ids[4], ids[5]]);
    assert.equal(dlg2lineage(fork)!.parent, '../demo.ipynb');
    assert.equal(readFileSync(parent, 'utf8'), readFileSync(DEMO, 'utf8'));

    const again = await run(forkCommand, parent, '--at', ids[2], '-o', out);
    assert.deepEqual([again.code, again.message], [1, `${out}: exists; pass --force to overwrite it`]);
    assert.equal(read(out).messages.length, 3);
    assert.equal((await run(forkCommand, parent, '--at', ids[2], '-o', out, '--force')).code, 0);
    assert.deepEqual(read(out).messages.map((m) => m.id), ids.slice(0, 3), 'overwritten');

    const self = await run(forkCommand, parent, '--at', ids[2], '-o', parent, '--force');
    assert.equal(self.code, 1);
    assert.match(self.message, /is the dialog being forked/);
    assert.equal(readFileSync(parent, 'utf8'), readFileSync(DEMO, 'utf8'));
  });

  it('fork: refusals exit 1, usage and unreadable files exit 2 with one line', async () => {
    const dir = tempDir();
    const out = join(dir, 'f.ipynb');
    const missing = await run(forkCommand, DEMO, '--at', 'nope', '-o', out);
    assert.deepEqual([missing.code, missing.message], [1, `${DEMO}: cannot fork: no message id: 'nope'`]);
    const dup = await run(forkCommand, corpus('synthetic/edge_duplicate_ids.ipynb'), '--at', 'dup1', '-o', out);
    assert.equal(dup.code, 1);
    assert.match(dup.message, /duplicate message id\(s\): dup1/);
    const bad = await run(forkCommand, corpus('synthetic/edge_not_json.ipynb'), '--at', 'x', '-o', out);
    assert.equal(bad.code, 2);
    assert.match(bad.message, /edge_not_json\.ipynb: not JSON: .* at line 1 column \d+$/);
    assert.equal(bad.message.split('\n').length, 1);
    for (const args of [[DEMO, '--at', ids[1]], [DEMO, '-o', out], [DEMO, '--at', ids[1], '-o', out, '--bogus'], [DEMO, '--at', ids[1], '-o', out, '--last-n', 'two']]) {
      assert.equal((await run(forkCommand, ...args)).code, 2, args.join(' '));
    }
    assert.equal(existsSync(out), false);
  });

  it('tree prints the lineage of a folder, recursively, naming files it cannot read; overview prints one line per message', async () => {
    const dir = tempDir();
    const p = join(dir, 'demo.ipynb');
    copyFileSync(DEMO, p);
    mkdirSync(join(dir, 'deep', 'er'), { recursive: true });
    mkdirSync(join(dir, '.ipynb_checkpoints'));
    assert.equal((await run(forkCommand, p, '--at', ids[5], '-o', join(dir, 'deep', 'er', 'f1.ipynb'))).code, 0);
    assert.equal((await run(forkCommand, join(dir, 'deep', 'er', 'f1.ipynb'), '--at', ids[2], '-o', join(dir, 'f2.ipynb'))).code, 0);
    copyFileSync(join(dir, 'f2.ipynb'), join(dir, '.ipynb_checkpoints', 'f2-checkpoint.ipynb'));
    writeFileSync(join(dir, 'broken.ipynb'), '{');
    const t = await run(treeCommand, dir);
    assert.equal(t.code, 0);
    assert.equal(t.stdout, '[demo.ipynb] msgs=8 split@None\n  └─ [deep/er/f1.ipynb] msgs=6 split@5\n    └─ [f2.ipynb] msgs=3 split@2\n');
    assert.match(t.stderr, /^dlg tree: skipped .*broken\.ipynb: not JSON: .*\n$/);

    // With the root renamed and the middle deleted, the root holds the split message; with both gone, the
    // fork hangs under its missing parent.
    renameSync(p, join(dir, 'renamed.ipynb'));
    rmSync(join(dir, 'deep', 'er', 'f1.ipynb'));
    const by = `(not at deep/er/f1.ipynb: found by message ${ids[2]})`;
    assert.equal((await run(treeCommand, dir)).stdout, `[renamed.ipynb] msgs=8 split@None\n  └─ [f2.ipynb] msgs=3 split@2 ${by}\n`);
    rmSync(join(dir, 'renamed.ipynb'));
    assert.equal((await run(treeCommand, dir)).stdout, '[deep/er/f1.ipynb] missing\n  └─ [f2.ipynb] msgs=3 split@2\n');

    const o = await run(overviewCommand, join(dir, 'f2.ipynb'));
    assert.equal(o.code, 0);
    assert.deepEqual(o.stdout.split('\n').map((l) => l.slice(0, 13)), [`0. ${ids[0]}:p`, `1. ${ids[1]}:c`, `2. ${ids[2]}:p`, '']);
    assert.equal((await run(treeCommand, join(dir, 'nowhere'))).code, 2);
    assert.equal((await run(overviewCommand, join(dir, 'nowhere.ipynb'))).code, 2);
  });
});
