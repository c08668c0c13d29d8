"""The `paiju` command: one entry point for the server, the robots and the tools."""
