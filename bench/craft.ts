// `npm run bench` (via run.mjs), or `npx tsx bench/craft.ts`: what CRAFT files cost a request when they
// have not changed (issue 21 §3; target: under 5 ms more than without). Two real corpus dialogs serve as
// the CRAFT files of a real dialog; each request looks them up in the CraftStore by their unchanged
// stamps (what the extension does after its stats), plans the history in the room they leave and puts
// their turns before it, against planning the same request without them. Median of many runs.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readIpynb } from '../src/core';
import { contextPlan } from '../src/core/answer';
import { CraftFile, CraftStore } from '../src/core/hist';
import { savedDialog } from '../src/core/reply';
import { medianTime } from './medianTime';

const corpus = join(__dirname, '..', '..', 'shared', 'corpus', 'public');
const load = (stem: string) => readIpynb(readFileSync(join(corpus, `${stem}.ipynb`), 'utf8'), stem);

async function main(): Promise<void> {
  const d = load('AnswerDotAI__fastllm__03_acomplete');
  const crafts: Record<string, CraftFile> = {
    'CRAFT.ipynb': { name: 'CRAFT.ipynb', dialog: load('AnswerDotAI__solveit_demos__00_Welcome_To_Solveit') },
    'sub/CRAFT.ipynb': { name: 'sub/CRAFT.ipynb', dialog: load('AnswerDotAI__fastllm__00_errors') },
  };
  const stamps = Object.keys(crafts).map((key) => ({ key, stamp: '1' }));
  const promptId = d.messages.filter((m) => m.msgType === 'prompt').at(-1)!.id;
  // A window the whole history fits in, so that both plans keep the same messages and do the same work.
  const limits = { maxInputTokens: 1e9, replyTokens: 8192 };
  const store = new CraftStore();
  const read = async (key: string) => crafts[key];
  const without = await medianTime(() => contextPlan(savedDialog(d), promptId, limits).chat, 200, 20);
  const withCraft = await medianTime(async () => {
    const craft = await store.context('dialog', stamps, read);
    const plan = contextPlan(savedDialog(d), promptId, { ...limits, maxInputTokens: limits.maxInputTokens - craft.tokens });
    return [...craft.chat, ...plan.chat];
  }, 200, 20);
  const plan = contextPlan(savedDialog(d), promptId, limits);
  const lookup = await medianTime(async () => [...(await store.context('dialog', stamps, read)).chat, ...plan.chat], 2000, 20);
  const craft = await store.context('dialog', stamps, read);
  console.log('\n### CRAFT files, unchanged (two corpus dialogs as CRAFT files of a third)\n');
  console.log('| request without CRAFT ms | with CRAFT ms | difference ms | the CRAFT lookup and turns alone ms (target < 5) | CRAFT turns | CRAFT tokens |');
  console.log('| ---: | ---: | ---: | ---: | ---: | ---: |');
  console.log(`| ${without.toFixed(2)} | ${withCraft.toFixed(2)} | ${(withCraft - without).toFixed(2)} | ${lookup.toFixed(3)} | ${craft.chat.length} | ${craft.tokens} |`);
}

void main();
