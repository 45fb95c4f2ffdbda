// `dlg golden`: the model and its projections in the schema of shared/golden/README.md, so a corpus
// file's output can be compared field by field with what the Python reference produced.
import { Json, JsonObject } from '../core/base';
import { Dialog, Message } from '../core/model';
import { writeIpynb } from '../core/ipynb';
import { aiRes, hasError } from '../core/model';
import { headerInfo, headerLevel, sectionMsgs } from '../core/model';
import { directives, exported, dlg2py } from '../core/model';
import { preview } from '../core/model';
import { validateDialog } from '../core/model';
import { aiOutput, renderOutputsAi } from '../core/hist';
import { toXml, histXml, promptTxt } from '../core/hist';
import { FileRefs, dlg2hist } from '../core/hist';
import { dlg2chat } from '../core/hist';
import { reply2dlg, dlg2reply, toolCall } from '../core/reply';
import { PyValue, pyToJson } from '../core/python';
import { LoadedDialog } from './readFile';
import { chatRecord, histRecord, sha256Hex } from './goldenEncoding';

const CELL_TYPES: Record<string, string> = { note: 'markdown', prompt: 'markdown', code: 'code', raw: 'raw' };

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
    to_xml: attempt(() => toXml(m)),
    hist_xml: attempt(() => (m.msgType === 'prompt' ? promptTxt(m, { envelope: true }) : histXml(m))),
    tool_call: attempt(() => {
      const call = toolCall(m);
      return call && { name: call.name, arguments: pyToJson(call.arguments as PyValue) };
    }),
  };
}

function replyReport(m: Message): JsonObject {
  return {
    id: m.id,
    reply2dlg: attempt(() =>
      reply2dlg(m).messages.map((x) => ({ msg_type: x.msgType, content: x.content, output: x.output, meta: x.meta })),
    ),
    dlg2reply_equals_ai_res: attempt(() => dlg2reply(reply2dlg(m)) === aiRes(m)),
  };
}

/** The report; `files` holds the dialog's `#ai` file refs as read (src/cli/fileRefs.ts), none when absent. */
export function goldenReport(f: LoadedDialog, files?: FileRefs): JsonObject {
  const d = f.dialog;
  const roundtrip = writeIpynb(d);
  const aim = { supports_vision: true };
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
    hist: attempt(() => histRecord(dlg2hist(d, aim, { envelope: true, files }))),
    hist_plain: attempt(() => histRecord(dlg2hist(d, aim, { files }))),
    chat: attempt(() => chatRecord(dlg2chat(d, null, { envelope: true, files }))),
    replies: d.messages.filter((m) => m.msgType === 'prompt').map(replyReport),
    dlg2py: attempt(() => dlg2py(d)),
    validate: attempt(() => (validateDialog(d), true)),
  };
}
