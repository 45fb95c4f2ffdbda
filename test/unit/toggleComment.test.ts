// dialoghelper's toggle_comment: comment all when any line is live, else uncomment all.
import * as assert from 'node:assert/strict';
import { toggleComment } from '../../src/core/surgery';

describe('toggleComment', () => {
  it('comments every line when any non-blank line is uncommented', () => {
    assert.equal(toggleComment('x = 1\n# y\n'), '# x = 1\n# # y');
    assert.equal(toggleComment('a\n\nb'), '# a\n# \n# b');
  });
  it('uncomments `# ` or `#` when every line is a comment or blank', () => {
    assert.equal(toggleComment('# x = 1\n#y\n\n  # z'), 'x = 1\ny\n\n  # z');
  });
  it('round-trips a commented block', () => {
    assert.equal(toggleComment(toggleComment('x = 1\n# y')), 'x = 1\n# y');
  });
});
