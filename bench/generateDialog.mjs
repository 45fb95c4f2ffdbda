// A deterministic dialog generator for benchmarks: the same (cells, seed) always gives the same bytes.
// The mix follows the public corpus: headed notes, code with streams / results / small images, and
// prompts whose replies carry <details> tool blocks.

/** mulberry32: a small seeded PRNG (the same seed, the same numbers). */
export function mulberry32(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SEP = '\n\n##### 🤖Reply🤖<!-- SOLVEIT_SEPARATOR_7f3a9b2c -->\n\n';
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const WORDS = 'the dialog cell reply model tool call result note code prompt section heading café 日本語 🤖 value list'.split(' ');

function lines(text) {
  const parts = text.split(/(?<=\n)/);
  return parts[parts.length - 1] === '' ? parts.slice(0, -1) : parts;
}

export function generateDialog(nCells = 20000, seed = 42) {
  const rand = mulberry32(seed);
  const pick = (xs) => xs[Math.floor(rand() * xs.length)];
  const sentence = (n) => Array.from({ length: n }, () => pick(WORDS)).join(' ');
  const hex = () => Math.floor(rand() * 2 ** 32).toString(16).padStart(8, '0');
  const cells = [];
  for (let i = 0; i < nCells; i++) {
    const r = rand();
    const id = hex();
    if (r < 0.3) {
      const head = i % 10 === 0 ? `${'#'.repeat(1 + Math.floor(rand() * 3))} Part ${i}\n\n` : '';
      cells.push({ cell_type: 'markdown', id, metadata: {}, source: lines(head + sentence(40)) });
    } else if (r < 0.65) {
      const outputs = [{ name: 'stdout', output_type: 'stream', text: lines(Array.from({ length: 5 }, (_, k) => `line ${k} ${sentence(4)}\n`).join('')) }];
      if (rand() < 0.3) outputs.push({ data: { 'image/png': PNG, 'text/plain': ['<Figure>'] }, metadata: {}, output_type: 'display_data' });
      outputs.push({ data: { 'text/plain': [String(i * 1.5)] }, execution_count: i, metadata: {}, output_type: 'execute_result' });
      cells.push({ cell_type: 'code', execution_count: null, id, metadata: {}, outputs, source: lines(`x_${i} = ${i}\nprint(x_${i})`) });
    } else {
      const call = `<details class='tool-usage-details'>\n<summary>f(x=${i})</summary>\n\n\`\`\`json\n{\n  "id": "toolu_${hex()}",\n  "call": {\n    "function": "f",\n    "arguments": {\n      "x": "${i}"\n    }\n  },\n  "result": "${i * 2}"\n}\n\`\`\`\n\n</details>\n\n`;
      const reply = sentence(30) + '\n\n' + (rand() < 0.4 ? call : '') + sentence(20);
      cells.push({ cell_type: 'markdown', id, metadata: { solveit_ai: true, ...(rand() < 0.1 ? { pinned: true } : {}) }, source: lines(sentence(15) + SEP + reply) });
    }
  }
  return { cells, metadata: { kernelspec: { display_name: 'python3', language: 'python', name: 'python3' }, solveit_dialog_mode: 'learning', solveit_ver: 2 }, nbformat: 4, nbformat_minor: 5 };
}
