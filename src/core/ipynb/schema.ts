// The nbformat shapes storage reads, as zod schemas whose messages are the repair reasons of
// ipynb-storage §10. Reading checks the common valid shapes by hand first (fast path) and asks zod only
// when that check fails, so a bad shape gets the precise reason without slowing the usual file.

import * as z from 'zod/mini';
import { Json, JsonObject, isJsonObject } from '../base/json';
import { isPyInt, pyRepr } from '../python';

const str = z.string();
const strList = z.array(z.string());
/** Python `int` (bool included, as `isinstance(True, int)`) or None. */
export function isIntOrNull(v: unknown): boolean {
  return v === null || typeof v === 'boolean' || isPyInt(v);
}

export const streamOutputSchema = z.object({
  output_type: z.literal('stream'),
  name: z.string({ error: 'stream requires a str name' }),
  text: z.union([str, strList], { error: 'stream requires text' }),
});

const bundle = (t: string) => ({
  data: z.custom<JsonObject>((v) => isJsonObject(v), { error: `${t} requires a data dict` }),
  metadata: z.custom<JsonObject>((v) => isJsonObject(v), { error: `${t} requires a metadata dict` }),
});

export const displayOutputSchema = z.object({ output_type: z.literal('display_data'), ...bundle('display_data') });

export const resultOutputSchema = z.object({
  output_type: z.literal('execute_result'),
  ...bundle('execute_result'),
  execution_count: z.custom<Json>(isIntOrNull, { error: 'execute_result requires an int or None execution_count' }),
});

export const errorOutputSchema = z.object({
  output_type: z.literal('error'),
  ename: z.string({ error: 'error requires str ename and evalue' }),
  evalue: z.string({ error: 'error requires str ename and evalue' }),
  traceback: z.array(z.string({ error: 'error requires a traceback list of str' }), { error: 'error requires a traceback list of str' }),
});

/** The schema of each known output type (the slow path of outputProblem). */
export const OUTPUT_SCHEMAS: Record<string, z.ZodMiniType> = {
  stream: streamOutputSchema,
  display_data: displayOutputSchema,
  execute_result: resultOutputSchema,
  error: errorOutputSchema,
};

function isStrList(v: Json | undefined): boolean {
  if (!Array.isArray(v)) return false;
  for (const x of v) if (typeof x !== 'string') return false;
  return true;
}

/** The hand-written check for the shapes real files hold; false means "ask zod". */
function quickValid(o: JsonObject): boolean {
  switch (o.output_type) {
    case 'stream':
      return typeof o.name === 'string' && (typeof o.text === 'string' || isStrList(o.text));
    case 'display_data':
      return isJsonObject(o.data) && isJsonObject(o.metadata);
    case 'execute_result':
      return isJsonObject(o.data) && isJsonObject(o.metadata) && isIntOrNull(o.execution_count);
    case 'error':
      return typeof o.ename === 'string' && typeof o.evalue === 'string' && isStrList(o.traceback);
  }
  return false;
}

/** Why an output is invalid (the §10 reason), or null when it is valid. */
export function outputProblem(o: Json): string | null {
  if (!isJsonObject(o)) return 'output must be a dict';
  if (quickValid(o)) return null;
  const t = o.output_type;
  const schema = typeof t === 'string' ? OUTPUT_SCHEMAS[t] : undefined;
  if (!schema) return `unknown output_type ${pyRepr(t ?? null)}`;
  const r = schema.safeParse(o);
  return r.success ? null : r.error.issues[0].message;
}

/**
 * One attachment, `{MIME: BASE64}`: only the first mime is read (ipynb-storage §5), so only its value
 * is checked; the issue's path names that mime.
 */
const attachmentSchema = z
  .custom<JsonObject>((v) => isJsonObject(v), { error: 'an attachment must be a {mime: base64} dict' })
  .check((ctx) => {
    const mime = Object.keys(ctx.value)[0];
    if (mime === undefined) ctx.issues.push({ code: 'custom', input: ctx.value, message: 'an attachment needs a mime' });
    else if (!isSource(ctx.value[mime]))
      ctx.issues.push({ code: 'custom', input: ctx.value, message: `${pyRepr(mime)} data must be a str or a list of str` });
  });

/** Why an attachment's `{MIME: BASE64}` dict cannot be read, or null when it can. */
export function attachmentProblem(bundle: Json): string | null {
  if (isJsonObject(bundle)) {
    const mimes = Object.keys(bundle);
    // Reading only the first would drop the others on a save, and which is first changes once the
    // save sorts them: such a bundle is kept as written instead (never lose what a user wrote).
    if (mimes.length > 1) return 'more than one mime type';
    if (mimes.length === 1 && isSource(bundle[mimes[0]])) return null;
  }
  const r = attachmentSchema.safeParse(bundle);
  return r.success ? null : r.error.issues[0].message;
}

/** Whether `v` is valid nbformat `source`: a string or a list of strings. */
export function isSource(v: Json | undefined): boolean {
  return typeof v === 'string' || isStrList(v);
}
