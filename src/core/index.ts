// What dist/core.js exports, folder by folder: the dialog model and every converter.
export * from './base';
export * from './python';
export * from './model';
export * from './ipynb';
export * from './hist';
export * from './reply';
export * from './surgery';
export * from './outline';
export * from './export';
export * from './fork';
export * from './answer';
export * from './tools';
export * from './threeway';
export * from './search';
export * from './share';
