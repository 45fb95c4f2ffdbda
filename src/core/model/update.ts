// `Message.update(**fields, mergemeta=, export=)` of the reference (model §10).

import { Json, JsonObject, isJsonObject, setKey } from '../base/json';
import { Attachment, DialogError, Message, Output } from './dialog';
import { updateExport } from './directives';

/** Marks a field to leave alone (handy for forms that always send every field). */
export const UNSET: unique symbol = Symbol('UNSET');

export interface MessageFields {
  id?: string | number | typeof UNSET;
  content?: string | typeof UNSET;
  msgType?: string | typeof UNSET;
  output?: Output[] | string | null | typeof UNSET;
  attachments?: Attachment[] | typeof UNSET;
  meta?: JsonObject | typeof UNSET;
  skipped?: Json | typeof UNSET;
  pinned?: Json | typeof UNSET;
  /** Existing host attributes (`m.extra`) may be assigned too. */
  [host: string]: unknown;
}

export interface UpdateOptions {
  /** Deep-merged into `meta` after the fields: nested objects merge, `null` deletes a key. */
  mergemeta?: JsonObject;
  /** `update(export=)`: moves a content export directive into metadata, then sets the metadata switch. */
  export?: boolean;
}

/** `base` with `patch` merged in: objects merge recursively, a null value deletes, anything else replaces. */
export function deepMerge(base: JsonObject, patch: JsonObject): JsonObject {
  const res: JsonObject = { ...base };
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete res[k];
    else if (isJsonObject(v) && isJsonObject(res[k])) res[k] = deepMerge(res[k] as JsonObject, v);
    else setKey(res, k, v);
  }
  return res;
}

const DECLARED = new Set(['id', 'content', 'msgType', 'output', 'attachments', 'meta', 'skipped', 'pinned']);

/** Assigns the given fields in order, then `mergemeta`, then `export`; returns `m`. */
export function updateMessage(m: Message, fields: MessageFields = {}, opts: UpdateOptions = {}): Message {
  const names = Object.keys(fields);
  // Check every name first, so a bad call changes nothing.
  for (const k of names) {
    if (!DECLARED.has(k) && !Object.prototype.hasOwnProperty.call(m.extra, k)) {
      throw new DialogError(`'${k}' is not a declared Message field; use mergemeta= for custom metadata`);
    }
  }
  for (const k of names) {
    const v = fields[k];
    if (v === UNSET) continue;
    switch (k) {
      case 'id':
        m.id = String(v);
        break;
      case 'content':
        m.content = v as string;
        break;
      case 'msgType':
        m.msgType = v as string;
        break;
      case 'output':
        m.output = v as Output[] | string | null;
        break;
      case 'attachments':
        m.attachments = v as Attachment[];
        break;
      case 'meta':
        m.setMeta(v as JsonObject);
        break;
      case 'skipped':
      case 'pinned':
        m[k] = v as Json;
        break;
      default:
        m.extra[k] = v;
    }
  }
  if (opts.mergemeta) m.setMeta(deepMerge(m.meta, opts.mergemeta));
  if (opts.export !== undefined) updateExport(m, opts.export);
  return m;
}
