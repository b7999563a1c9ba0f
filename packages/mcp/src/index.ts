export { createMcpToolProvider } from "./mcp-tool-provider";
