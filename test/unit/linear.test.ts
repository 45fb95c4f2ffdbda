// Work that grows linearly with the input: for each function that a pathological reply or cell once made
// quadratic, quadrupling the input may at most about quadruple the time (the limit, 8×, sits halfway to
// the 16× of quadratic work, far from both, so a noisy machine does not fail linear code). Both sizes are
// timed in the same run, so the check is a ratio, never a fixed time; the size grows until a run is long
// against timer noise. Time is this process's CPU time, which other processes on a loaded machine do not inflate, and
// each size counts its fastest of several interleaved runs (the garbage collector only ever adds time).
// A failing measurement is taken again before it counts.
import { strict as assert } from 'node:assert';
import { firstLine } from '../../src/core/outline';
import { replyParts } from '../../src/core/reply';
import { INSTRUCTIONS, chat2dlg, dlg2chat, textPart } from '../../src/core/hist';
import { dlg2md } from '../../src/core/export';
import { Dialog, Message } from '../../src/core/model';
import { tryParsePyLiteral } from '../../src/core/python';

const GROWTH = 4;
const LIMIT = 8;
const MIN_MS = 15;

function ms(f: () => unknown): number {
  const start = process.cpuUsage();
  f();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/** t(GROWTH·n) / t(n), the fastest of interleaved runs, for the smallest n ≥ `start` whose run takes MIN_MS. */
function growth(make: (n: number) => () => unknown, start: number): { n: number; ratio: number } {
  let n = start;
  let small = make(n);
  while (ms(small) < MIN_MS && n < 1 << 26) small = make((n *= 2));
  const big = make(GROWTH * n);
  big();
  const a: number[] = [];
  const b: number[] = [];
  for (let k = 0; k < 7; k++) {
    a.push(ms(small));
    b.push(ms(big));
  }
  return { n, ratio: Math.min(...b) / Math.min(...a) };
}

function assertLinear(make: (n: number) => () => unknown, start = 1000): void {
  let g = { n: 0, ratio: 0 };
  for (let attempt = 0; attempt < 3; attempt++) {
    g = growth(make, start);
    if (g.ratio <= LIMIT) return;
  }
  assert.fail(`${GROWTH}× the input from ${g.n} multiplied the time by ${g.ratio.toFixed(2)}`);
}

const prompt = (reply: string) => new Message({ msgType: 'prompt', content: 'q', output: reply });
const rep = (s: string) => (n: number) => s.repeat(n);

const UNCLOSED_REPLIES: [string, (n: number) => string][] = [
  ['unclosed <details> tool envelopes', rep("<details class='tool-usage-details'>\n```json\n")],
  ['unclosed <summary> in tool envelopes', rep("<details class='tool-usage-details'>\n<summary>")],
  ['unclosed ::: tool envelopes', rep('::: {.details .tool-usage-details}\n```json\n')],
  ['unclosed token envelopes', (n) => "<details class='token-usage-details'>\n<summary>\n".repeat(n) + '</summary>\n`x`\n'],
  ['unclosed ```json blocks', rep('```json\n')],
  ['unclosed ::: tool envelopes with a heading', rep('::: {.details .tool-usage-details}\n## f()\n```json\n')],
];

describe('linear time on pathological input', function () {
  this.timeout(120000);

  it('firstLine (outline, sections, find) on runs of `![`', () => {
    assertLinear((n) => {
      const s = '!['.repeat(n);
      return () => firstLine(s);
    });
    assertLinear((n) => {
      const s = '![x]('.repeat(n);
      return () => firstLine(s);
    });
  });

  for (const [what, make] of UNCLOSED_REPLIES) {
    it(`replyParts (reply2dlg) and dlg2chat on ${what}`, () => {
      assertLinear((n) => {
        const p = prompt(make(n));
        return () => replyParts(p);
      }, 200);
      assertLinear((n) => {
        const d = new Dialog([prompt(make(n))]);
        return () => dlg2chat(d);
      }, 200);
    });
  }

  it('replyParts on many envelopes whose calls never match', () => {
    const env = (id: string) =>
      `<details class='tool-usage-details'>\n\`\`\`json\n{"id": ${id}, "call": {"function": "f", "arguments": {}}, "result": "r"}\n\`\`\`\n</details>\n\n`;
    assertLinear((n) => {
      const p = prompt(env('null').repeat(n) + Array.from({ length: n }, (_, k) => env(`"c${k}"`)).join(''));
      return () => replyParts(p);
    }, 100);
  });

  it('dlg2md on newline runs in code, prompts and replies', () => {
    assertLinear((n) => {
      const nl = '\n'.repeat(n);
      const d = new Dialog([
        new Message({ msgType: 'code', content: 'a' + nl + 'b' }),
        new Message({ msgType: 'prompt', content: 'a' + nl + 'b' + nl, output: 'r' + nl + 'b' + nl }),
      ]);
      return () => dlg2md(d);
    }, 10_000);
  });

  it('chat2dlg on a user turn holding many prompt envelopes', () => {
    assertLinear((n) => {
      const text = `${INSTRUCTIONS}\n<prompt>x`.repeat(n);
      return () => chat2dlg([{ role: 'user', content: [textPart(text)] }]);
    }, 100);
  });

  it('a Python dict literal with many non-string keys', () => {
    assertLinear((n) => {
      const src = '{' + Array.from({ length: n }, (_, k) => `${k}: ${k}`).join(', ') + '}';
      return () => tryParsePyLiteral(src);
    }, 500);
  });
});
