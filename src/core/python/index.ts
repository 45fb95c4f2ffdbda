// Python's semantics where dialog text and values cross into Python: `repr`, literal parsing, string rules.
export * from './values';
export * from './literal';
export * from './text';
export * from './packages';
