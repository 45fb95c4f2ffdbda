// A reply streams into its prompt cell as the cell's output, and outputs are content (saved, dirtying):
// with auto save on, a pause in the stream would save a partial reply as if it were the answer. So a
// streaming output is marked with a key, the prompt's outputs before the answer are kept under that key,
// and a save made while it streams writes those instead: the file keeps the old reply until the new one
// is written as the cell's reply, when the answer ends. A mark outlives its answer only after a revert,
// which puts the file's reply into the marked output: that is saved as it is.

import * as vscode from 'vscode';
import { CellLike, cellReply } from './cells';

type Outputs = NonNullable<CellLike['outputs']>;

/** The outputs each streaming answer replaced, by its key. */
const before = new Map<string, Outputs>();
let keys = 0;

/** A streaming answer's mark on the outputs it shows; `end()` once the cell no longer shows them. */
export interface StreamingReply {
  /** `output` marked as this answer's streaming output. */
  mark(output: vscode.NotebookCellOutput): vscode.NotebookCellOutput;
  /** Whether `outputs` are this answer's (marked by it). */
  shows(outputs: Outputs): boolean;
  end(): void;
}

/** Starts marking a cell's streamed outputs; a save meanwhile writes `old` (the cell's outputs before). */
export function streamingReply(old: Outputs): StreamingReply {
  const key = `s${++keys}`;
  before.set(key, old);
  // The replies marked and not yet seen on the cell. A revert replaces an executing cell's output items
  // and keeps the output's metadata, so the mark alone does not tell our outputs from the file's.
  let sent: string[] = [];
  return {
    mark: (o) => {
      const marked = new vscode.NotebookCellOutput(o.items, { ...o.metadata, dialog: { ...(o.metadata?.dialog as object | undefined), streaming: key } });
      sent.push(cellReply({ outputs: [marked] }));
      return marked;
    },
    shows: (outputs) => {
      if (streamingKey(outputs) !== key) return false;
      const k = sent.indexOf(cellReply({ outputs }));
      if (k > 0) sent = sent.slice(k);
      return k >= 0;
    },
    end: () => void before.delete(key),
  };
}

const streamingKey = (outputs: Outputs | undefined): string | undefined => {
  for (const o of outputs ?? []) {
    const k = (o.metadata?.dialog as { streaming?: unknown } | undefined)?.streaming;
    if (typeof k === 'string') return k;
  }
  return undefined;
};

/** The outputs to save for a cell: its own, or, while a reply streams into it, those it had before. */
export function savedOutputs(c: CellLike): Outputs | undefined {
  const key = streamingKey(c.outputs);
  if (key === undefined) return c.outputs;
  return before.get(key) ?? c.outputs;
}

/** Whether a reply is streaming into the cell (its outputs carry a streaming answer's mark). */
export function isStreaming(c: Pick<CellLike, 'outputs'>): boolean {
  const key = streamingKey(c.outputs);
  return key !== undefined && before.has(key);
}
