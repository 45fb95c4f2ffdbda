// The Jupyter Servers a dialog's kernels run on: the connection by URL and token through
// `@jupyterlab/services` (connection.ts), the local server this window starts (localServer.ts), the remote
// one of `dialogNotebook.jupyter.serverUrl` and its token in SecretStorage (token.ts), which of them a
// dialog uses (serverChoice.ts), and the window's servers, started or connected once (servers.ts). The
// kernel room (kernel/) runs code on them; nothing here imports it.

export { JupyterServers } from './servers';
export { JupyterToken } from './token';
