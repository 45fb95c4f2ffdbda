// `dlg golden`: the model and its projections in the schema of shared/golden/README.md, so a corpus
// file's output can be compared field by field with what the Python reference produced.
import { createHash } from 'node:crypto';
import { Json, JsonObject } from '../core/json';
import { Dialog, Message } from '../core/model';
import { writeIpynb } from '../core/ipynb';
import { aiRes, hasError } from '../core/outputs';
import { headerInfo, headerLevel, sectionMsgs } from '../core/sections';
import { directives, exported, dlg2py } from '../core/directives';
import { preview } from '../core/preview';
import { validateDialog } from '../core/validate';
import { aiOutput, renderOutputsAi } from '../core/render';
import { LoadedDialog } from './readFile';

const CELL_TYPES: Record<string, string> = { note: 'markdown', prompt: 'markdown', code: 'code', raw: 'raw' };

export function sha256Hex(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex');
}

/** A field's value, or the reference's `{"__error__": {type, message}}` form when it throws. */
export function attempt(f: () => Json): Json {
  try {
    return f();
  } catch (e) {
    const err = e as Error;
    return { __error__: { type: err.name || 'Error', message: err.message } };
  }
}

function messageReport(d: Dialog, m: Message, index: number): JsonObject {
  return {
    index,
    id: m.id,
    msg_type: m.msgType,
    cell_type: CELL_TYPES[m.msgType] ?? m.msgType,
    content: m.content,
    output: m.output,
    meta: m.meta,
    skipped: m.skipped,
    pinned: m.pinned,
    attachments: m.attachments.map((a) => ({ id: a.id, content_type: a.contentType, sha256: sha256Hex(a.data), len: a.data.length })),
    ai_res: aiRes(m),
    ai_output: attempt(() => aiOutput(m)),
    render_outputs_ai: m.msgType === 'code' ? attempt(() => renderOutputsAi(m.outputs)) : null,
    header_level: headerLevel(m),
    header_info: headerInfo(m.content) as Json,
    section: attempt(() => sectionMsgs(d.messages, m).map((x) => x.id)),
    exported: attempt(() => exported(m)),
    directives: attempt(() => directives(m)),
    has_error: hasError(m),
    preview: attempt(() => preview(m)),
  };
}

export function goldenReport(f: LoadedDialog): JsonObject {
  const d = f.dialog;
  const roundtrip = writeIpynb(d);
  return {
    schema: 'aidialog-golden/1',
    file: f.stem + '.ipynb',
    input_sha256: sha256Hex(f.text),
    input_len: Array.from(f.text).length,
    repairs: f.repairs,
    read: { returned: 'Dialog', name: d.name, n_messages: d.messages.length },
    dialog_meta: d.meta,
    roundtrip: roundtrip === f.text ? null : roundtrip,
    roundtrip_equals_input: roundtrip === f.text,
    messages: d.messages.map((m, i) => messageReport(d, m, i)),
    dlg2py: attempt(() => dlg2py(d)),
    validate: attempt(() => (validateDialog(d), true)),
  };
}
