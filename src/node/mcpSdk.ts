// The parts of the MCP SDK (@modelcontextprotocol/sdk) the agents' server uses, in one module that the
// build bundles on its own (dist/lazy/mcp.js): it is loaded when the server starts, never on activation,
// and never in the browser build (the platform there has no loopback server).

export { Server } from '@modelcontextprotocol/sdk/server/index.js';
export { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
export { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
