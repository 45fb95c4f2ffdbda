// The mock model servers, the GitHub stand-in and the local web site for test/web/pass.mjs, which runs in Node beside the browser (bundled to
// out/test/web/mocks.mjs): the suites in the web worker cannot start servers.
export { start as startAnthropic } from '../mocks/anthropicServer';
export { start as startOpenAI } from '../mocks/openaiServer';
export { startWebSite } from '../mocks/webSite';
export { startGitHub } from '../mocks/githubServer';
