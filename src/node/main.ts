// The desktop entry (package.json `main`): the shared extension on the Node platform.
import { setPlatform } from '../extension/platform';
import { nodePlatform } from './platform';

setPlatform(nodePlatform);
export { activate, deactivate } from '../extension/extension';
