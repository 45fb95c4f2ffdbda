// Python `repr` and Python literal parsing, needed wherever a value crosses between JSON and Python
// source: tool-call sources, previews, diffs, literal re-evaluation of code results.

export * from './pyValues';
export * from './pyLiteral';
