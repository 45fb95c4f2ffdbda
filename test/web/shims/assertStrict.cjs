// `node:assert/strict` in the web test bundle: the browser port of Node's assert (npm `assert`), strict mode.
module.exports = require('assert').strict;
