// The browser entry (package.json `browser`): the shared extension on the web-worker platform.
import { setPlatform } from '../extension/platform';
import { webPlatform } from './platform';

setPlatform(webPlatform);
export { activate, deactivate } from '../extension/extension';
