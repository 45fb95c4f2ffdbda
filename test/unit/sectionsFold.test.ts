// Folded sections as Solveit stores them (issue 31): heading_collapsed on the heading, hidden inside;
// a folded heading brings its section along; a note's heading level.
import { strict as assert } from 'node:assert';
import { Message, setSectionFolded, withFoldedSections, withHeadingLevel } from '../../src/core/model';

const note = (id: string, content: string, meta = {}) => new Message({ id, msgType: 'note', content, meta });
const code = (id: string, meta = {}) => new Message({ id, msgType: 'code', content: id, meta });

describe('folded sections', () => {
  it('folding writes heading_collapsed and hidden; unfolding keeps a folded subsection hidden', () => {
    const pool = [note('h1', '# A'), code('c1'), note('h2', '## B', { heading_collapsed: true }), code('c2', { hidden: true }), note('h3', '# C'), code('c3')];
    assert.deepEqual(setSectionFolded(pool, pool[0], true).map((m) => m.id), ['h1', 'c1', 'h2']);
    assert.deepEqual(pool.map((m) => m.meta), [{ heading_collapsed: true }, { hidden: true }, { heading_collapsed: true, hidden: true }, { hidden: true }, {}, {}]);
    assert.deepEqual(setSectionFolded(pool, pool[0], false).map((m) => m.id), ['h1', 'c1', 'h2']);
    assert.deepEqual(pool.map((m) => m.meta), [{}, {}, { heading_collapsed: true }, { hidden: true }, {}, {}]);
    assert.deepEqual(setSectionFolded(pool, pool[2], true), [], 'already folded: nothing changes');
    assert.throws(() => setSectionFolded(pool, pool[1], true), /not a heading/);
  });

  it('a folded heading brings its section; an open one does not', () => {
    const pool = [note('h1', '# A', { heading_collapsed: true }), code('c1'), note('h2', '# B'), code('c2')];
    assert.deepEqual(withFoldedSections(pool, [pool[0]]).map((m) => m.id), ['h1', 'c1']);
    assert.deepEqual(withFoldedSections(pool, [pool[2]]).map((m) => m.id), ['h2']);
    assert.deepEqual(withFoldedSections(pool, [pool[3], pool[0]]).map((m) => m.id), ['h1', 'c1', 'c2']);
  });

  it('a heading level replaces the #s, or puts them before a plain note', () => {
    assert.equal(withHeadingLevel('Intro\nmore', 2), '## Intro\nmore');
    assert.equal(withHeadingLevel('  ### Deep', 1), '# Deep');
    assert.equal(withHeadingLevel('#hashtag', 1), '# #hashtag');
    assert.throws(() => withHeadingLevel('x', 7), /1 to 6/);
  });
});
