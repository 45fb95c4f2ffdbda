// The AI's dialog tools (Solveit's "Use tools"): definitions and pure operations.
export * from './defs';
export * from './run';
export * from './limit';
export * from './web';
