// Stands in for `@pydantic/genai-prices` in dist/extension.js (scripts/build.mjs): the price table, a third
// of the bundle, is read when the first answer is priced rather than at activation. The core asks for a
// price synchronously, so this is a synchronous `require` of dist/lazy/prices.js.

import type * as Prices from '@pydantic/genai-prices';

let prices: typeof Prices | undefined;

export const calcPrice: typeof Prices.calcPrice = (...args) =>
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  (prices ??= require('@pydantic/genai-prices') as typeof Prices).calcPrice(...args);
