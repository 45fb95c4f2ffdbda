// Extension-host side of test/electron/run.mjs: runs the bundled suites out/test/extension/*.test.js.
'use strict';
const path = require('path');
const fs = require('fs');
const Mocha = require('mocha');

exports.run = async function run() {
  const mocha = new Mocha({ ui: 'bdd', timeout: 60000, color: true });
  const dir = path.resolve(__dirname, '../../out/test/extension');
  for (const f of fs.readdirSync(dir).filter((f) => f.endsWith('.test.js'))) mocha.addFile(path.join(dir, f));
  await mocha.loadFilesAsync();
  const failures = await new Promise((resolve) => mocha.run(resolve));
  if (failures) throw new Error(`${failures} test(s) failed`);
};
