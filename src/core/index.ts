// What dist/core.js exports: the dialog model and every converter.
export * from './json';
export * from './model';
