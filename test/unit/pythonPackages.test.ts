// Which package to offer when a dialog's code stops at ModuleNotFoundError (core/python/packages.ts, issue 47).
import * as assert from 'node:assert/strict';
import { missingSolveitPackage } from '../../src/core/python';
import { mkError, msg2out } from '../../src/core/model';

const err = (ename: string, evalue: string) => msg2out(mkError(ename, evalue, []));

describe('python: a package a Solveit dialog expects', () => {
  it('names the package of a module Solveit provides, submodules by their top module', () => {
    assert.deepEqual(missingSolveitPackage([err('ModuleNotFoundError', "No module named 'dialoghelper'")]), { module: 'dialoghelper', pkg: 'dialoghelper' });
    assert.deepEqual(missingSolveitPackage([{ output_type: 'stream', name: 'stdout', text: 'x' }, err('ModuleNotFoundError', "No module named 'fastcore.utils'")]), { module: 'fastcore', pkg: 'fastcore' });
    assert.deepEqual(missingSolveitPackage([err('ModuleNotFoundError', "No module named 'fasthtml'")]), { module: 'fasthtml', pkg: 'python-fasthtml' });
  });

  it('offers nothing for another module or another error', () => {
    assert.equal(missingSolveitPackage([err('ModuleNotFoundError', "No module named 'numpy'")]), undefined);
    assert.equal(missingSolveitPackage([err('ImportError', "cannot import name 'x' from 'fastcore'")]), undefined);
    assert.equal(missingSolveitPackage([err('ModuleNotFoundError', "No module named 'constructor'")]), undefined);
    assert.equal(missingSolveitPackage([]), undefined);
  });
});
