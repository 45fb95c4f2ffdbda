// Injected into the web test bundle only (never the extension's): the npm `assert` reads
// process.stderr/emitWarning, which a web worker does not have.
export const process = { env: {} as Record<string, string | undefined>, stderr: {}, emitWarning: undefined };
