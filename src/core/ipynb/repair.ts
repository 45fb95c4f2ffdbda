// Repairs on read (ipynb-storage §10): broken shapes are healed in place, each fix reported with the
// reference's exact message. Repairs only change the parsed object, never the file text, so an unedited
// cell still writes back its original bytes.

import { Json, JsonObject, isJsonObject, parseJson } from '../base/json';
import { isIntOrNull, isSource, outputProblem } from './schema';
import { pyStr } from '../python';

/** Joins `source` into one string, coercing what is not a string or list of strings (`str()` of each item). */
export function joinSource(v: Json | undefined): string {
  if (typeof v === 'string') return v;
  if (v === undefined) return '';
  const items = Array.isArray(v) ? v : [v];
  let s = '';
  for (const x of items) s += typeof x === 'string' ? x : pyStr(x);
  return s;
}

/**
 * Repairs one cell in place (`where` is `cell <id>` or `cell <index>`), pushing messages to `out`.
 * `code` says whether the cell is read as a code cell.
 */
export function repairCell(c: JsonObject, where: string, code: boolean, out: string[] | null): void {
  const say = (msg: string) => out?.push(`${where}${msg}`);
  const has = (k: string) => Object.prototype.hasOwnProperty.call(c, k);
  if (has('source') && !isSource(c.source)) {
    c.source = joinSource(c.source);
    say(': coerced source to text');
  }
  if (has('metadata') && !isJsonObject(c.metadata)) {
    c.metadata = {};
    say(': reset non-dict metadata');
  }
  if (!code) {
    for (const k of ['outputs', 'execution_count']) {
      if (has(k)) {
        delete c[k];
        say(`: removed ${k}`);
      }
    }
    return;
  }
  if (!Array.isArray(c.outputs)) {
    const legacy = legacyOutputs(c.outputs);
    c.outputs = legacy ?? [];
    say(legacy ? ': parsed legacy string outputs' : ': added outputs list');
  }
  if (!has('execution_count')) {
    c.execution_count = null;
    say(': added execution_count');
  }
  const outs = c.outputs as Json[];
  let dropped = false;
  const kept: Json[] = [];
  outs.forEach((o, j) => {
    if (isJsonObject(o) && (o.output_type === 'display_data' || o.output_type === 'execute_result')) {
      if (!isJsonObject(o.metadata)) {
        o.metadata = {};
        say(` output ${j}: set metadata`);
      }
      if (o.output_type === 'execute_result' && !isIntOrNull(o.execution_count)) {
        o.execution_count = null;
        say(` output ${j}: set execution_count`);
      }
    }
    const problem = outputProblem(o);
    if (problem === null) kept.push(o);
    else {
      dropped = true;
      say(` output ${j}: removed output (${problem})`);
    }
  });
  if (dropped) c.outputs = kept;
}

/** Legacy hosts stored outputs as a JSON string (ipynb-storage §6): its list, if it holds one. */
export function legacyOutputs(v: Json | undefined): Json[] | undefined {
  if (typeof v !== 'string') return undefined;
  try {
    const parsed = parseJson(v).value;
    return Array.isArray(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}
